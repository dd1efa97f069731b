import type { Config } from '../schemas/config.ts';
import type { Logger } from '../lib/log.ts';
import type { ApiModule, ZodApp } from './api-module.ts';
import { buildApp } from './app.ts';
import { ensureKey } from './auth/ensure-key.ts';
import { keyAnnouncement } from './auth/key-announcement.ts';
import { keyFilePath } from './auth/key-file.ts';
import { KeyStore } from './auth/key-store.ts';
import type { PrecomputeProgress } from './http/not-ready.ts';
import { startMetricsListener, type MetricsListener } from '../lib/metrics/metrics-listener.ts';
import { ServeMetrics } from './serve-metrics.ts';
import { SnapshotHolder, type SnapshotSource } from './snapshot/snapshot-holder.ts';

/** What a precompute reports before its first step starts (reading the sources, fingerprinting). */
const PREPARING: PrecomputeProgress = {
  step: 'preparing',
  count: 0,
  total: undefined,
  unit: 'steps',
  leftMs: undefined,
};

export interface ServiceDeps {
  config: Config;
  logger: Logger;
  apiModules: readonly ApiModule<unknown>[];
  source: SnapshotSource;
  /** Builds and publishes a snapshot; run once when nothing is published yet. */
  publishFirstSnapshot: () => Promise<void>;
  /**
   * Builds and publishes what the published snapshot lacks (the REM and health families after a first
   * snapshot of the incentives alone; nothing on a complete lake), in the background once serving.
   */
  precompute?: {
    run(): Promise<void>;
    /** How far the run is, while it runs. */
    progress(): PrecomputeProgress | null;
  };
  /** Where the one-time key announcement (a block of lines) goes: the terminal, never the logs. */
  print: (block: string) => void;
}

export interface RunningService {
  app: ZodApp;
  url: string;
  /** Settles once the background precompute is over and what it published is served (or it failed). */
  precomputed: Promise<void>;
  /** The Prometheus scrape URL, when METRICS_PORT is set. */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

/**
 * `npm start` after configuration: a first snapshot if there is none, a key if none is configured, then
 * the server, then the precompute in the background. A failed first pipeline run is logged and the server
 * starts anyway: data routes answer 503 until a snapshot is published (e.g. by `npm run pipeline`), which
 * the holder then picks up. A failed precompute is logged too, and what is served stays as it was.
 */
export async function startService(deps: ServiceDeps): Promise<RunningService> {
  const { config, logger, source } = deps;
  if ((await source.currentId()) === null) {
    logger.info('no snapshot is published yet: running the pipeline once before serving');
    try {
      await deps.publishFirstSnapshot();
    } catch (err) {
      logger.error({ err }, 'first pipeline run failed; serving without data until a snapshot is published');
    }
  }

  const keyFile = keyFilePath(config.LAKE_DIR);
  const created = await ensureKey(keyFile, config.API_KEYS);
  if (created) {
    deps.print(keyAnnouncement(created.id, created.key));
  }

  const keyStore = await KeyStore.open({
    file: keyFile,
    staticKeys: config.API_KEYS,
    pollMs: config.SNAPSHOT_POLL_MS,
    logger,
  });
  const metrics = new ServeMetrics();
  const snapshots = new SnapshotHolder({
    source,
    modules: deps.apiModules.map((m) => m.serving),
    pollMs: config.SNAPSHOT_POLL_MS,
    logger,
    events: metrics,
  });
  await snapshots.start();
  let precomputing = deps.precompute !== undefined;
  const app = await buildApp({
    config,
    logger,
    snapshots,
    apiModules: deps.apiModules,
    keyStore,
    metrics,
    precompute: () => (precomputing ? (deps.precompute?.progress() ?? PREPARING) : null),
  });
  let metricsListener: MetricsListener | null = null;
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
    if (config.METRICS_PORT !== undefined) {
      metricsListener = await startMetricsListener(metrics.registry, {
        host: config.METRICS_HOST,
        port: config.METRICS_PORT,
      }).catch((error: unknown) => {
        const { code, message } = error as NodeJS.ErrnoException;
        throw new Error(
          `metrics: cannot listen on ${config.METRICS_HOST}:${config.METRICS_PORT} (${code ?? message}); ` +
            'set METRICS_PORT or METRICS_HOST',
        );
      });
      logger.info({ url: metricsListener.url }, `metrics on ${metricsListener.url}`);
    }
  } catch (err) {
    snapshots.close();
    keyStore.close();
    await app.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  logger.info({ url, snapshot: snapshots.current()?.id ?? null }, `serving on ${url}`);
  const precomputed = (async () => {
    if (deps.precompute === undefined) return;
    try {
      await deps.precompute.run();
      // Swapped before the routes stop saying a precompute runs, so none answers "not in the data yet".
      await snapshots.refresh();
    } catch (err) {
      logger.error({ err }, 'precompute failed; still serving the published snapshot');
    } finally {
      precomputing = false;
    }
  })();
  return {
    app,
    url,
    precomputed,
    metricsUrl: metricsListener?.url ?? null,
    async stop() {
      snapshots.close();
      keyStore.close();
      await Promise.all([app.close(), metricsListener?.close()]);
    },
  };
}
