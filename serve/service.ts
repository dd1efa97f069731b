import { once } from 'node:events';
import type { Redis } from 'ioredis';
import type { Config } from '../schemas/config.ts';
import type { Logger } from '../lib/log.ts';
import type { RouteGroup, ZodApp } from './route-group.ts';
import { buildApp } from './app.ts';
import { ensureKey } from './auth/ensure-key.ts';
import { keyAnnouncement } from './auth/key-announcement.ts';
import { keyFilePath } from './auth/key-file.ts';
import { KeyStore } from './auth/key-store.ts';
import { preparing, type PrecomputeProgress } from './http/not-ready.ts';
import { startMetricsListener, type MetricsListener } from '../lib/metrics/metrics-listener.ts';
import { ServeMetrics } from './serve-metrics.ts';
import { SnapshotHolder, type SnapshotSource } from './snapshot/snapshot-holder.ts';

export interface ServiceDeps {
  config: Config;
  logger: Logger;
  routeGroups: readonly RouteGroup<unknown>[];
  source: SnapshotSource;
  /** Builds and publishes a snapshot; run once by a primary when nothing is published yet. */
  publishFirstSnapshot: () => Promise<void>;
  /**
   * Builds and publishes what the published snapshot lacks (the REM and health families after a first
   * snapshot of the incentives alone; nothing on a complete lake), in the background once serving. It calls
   * `servePublished` to have a snapshot it published in between (a quick stage's) served at once.
   */
  precompute?: {
    run(servePublished: () => Promise<void>): Promise<void>;
    /** How far the run is, while it runs. */
    progress(): PrecomputeProgress | null;
  };
  /** Where the one-time key announcement (a block of lines) goes: the terminal, never the logs. */
  print: (block: string) => void;
  /** The code and settings answering, in every ETag (default: the serving code's, `answerVersion`). */
  answerVersion?: string;
}

export interface RunningService {
  app: ZodApp;
  url: string;
  /** Settles once the background precompute is over and what it published is served (or it failed). */
  precomputed: Promise<void>;
  /** The Prometheus scrape URL, when METRICS_PORT is set. */
  metricsUrl: string | null;
  /** From now on /healthz answers 503 ("draining") so a load balancer stops sending; requests are still answered. */
  drain(): void;
  stop(): Promise<void>;
}

/** A primary's lake before serving: a first snapshot if none is published, and a key if none is configured. */
async function preparePrimary(deps: ServiceDeps, keyFile: string): Promise<void> {
  const { config, logger, source } = deps;
  if ((await source.currentId()) === null) {
    logger.info('no snapshot is published yet: running the pipeline once before serving');
    try {
      await deps.publishFirstSnapshot();
    } catch (err) {
      logger.error({ err }, 'first pipeline run failed; serving without data until a snapshot is published');
    }
  }
  const created = await ensureKey(keyFile, config.API_KEYS);
  if (created) deps.print(keyAnnouncement(created.id, created.key));
}

/**
 * The Redis the replicas share their rate-limit counts in (RATE_LIMIT_REDIS_URL), or undefined for this
 * process's own count. A request never waits for it: with no connection a count fails at once and the
 * request is let through uncounted (logged once per outage).
 */
async function rateLimitRedis(config: Config, logger: Logger): Promise<Redis | undefined> {
  if (config.RATE_LIMIT_REDIS_URL === undefined) return undefined;
  // Imported only when asked for: a single process has no use for ioredis (2 MB of heap in a bare node).
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.RATE_LIMIT_REDIS_URL, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Far above a healthy round trip, short enough that an outage adds little latency.
    commandTimeout: 200,
    // Concurrent requests' counts go out in one write.
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  let down = false;
  redis.on('error', (err: unknown) => {
    if (down) return;
    down = true;
    logger.warn({ err }, 'rate limit: Redis unavailable; requests go uncounted until it answers');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('rate limit: Redis answers again; counting across replicas');
  });
  // A server starts with the shared count when Redis answers within a few seconds.
  await once(redis, 'ready', { signal: AbortSignal.timeout(5000) }).catch(() => {});
  return redis;
}

/** The Prometheus listener on METRICS_PORT, if set; a port it cannot take is an error naming the settings. */
async function metricsListenerFor(
  config: Config,
  metrics: ServeMetrics,
  logger: Logger,
): Promise<MetricsListener | null> {
  if (config.METRICS_PORT === undefined) return null;
  const listener = await startMetricsListener(metrics.registry, {
    host: config.METRICS_HOST,
    port: config.METRICS_PORT,
  }).catch((error: unknown) => {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new Error(
      `metrics: cannot listen on ${config.METRICS_HOST}:${config.METRICS_PORT} (${code ?? message}); ` +
        'set METRICS_PORT or METRICS_HOST',
    );
  });
  logger.info({ url: listener.url }, `metrics on ${listener.url}`);
  return listener;
}

/**
 * Runs the precompute, then serves what it published; `over` is called once it stopped, whether it
 * published or failed (which is logged, and what is served stays as it was).
 */
async function precomputeInBackground(
  precompute: NonNullable<ServiceDeps['precompute']>,
  snapshots: SnapshotHolder,
  logger: Logger,
  over: () => void,
): Promise<void> {
  try {
    // Swapped before the routes stop saying a precompute runs, so none answers "not in the data yet".
    await precompute.run(() => snapshots.refresh());
    await snapshots.refresh();
  } catch (err) {
    logger.error({ err }, 'precompute failed; still serving the published snapshot');
  } finally {
    over();
  }
}

/** The URL the app listens on, as a client would write it. */
function listeningUrl(app: ZodApp, config: Config): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
  return `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
}

/**
 * `npm start` after configuration. A primary makes a first snapshot if there is none and a key if none
 * is configured; a replica (SERVE_ROLE=replica) writes nothing, as the pipeline and `npm run keys` own the
 * lake and the key file. Then the server, then (a primary) the precompute in the background. With no
 * snapshot (a replica before the first publish, or a failed first pipeline run, which is logged) the server
 * starts anyway: data routes and /healthz answer 503 until a snapshot is published, which the holder then
 * picks up. A failed precompute is logged too, and what is served stays as it was.
 */
export async function startService(deps: ServiceDeps): Promise<RunningService> {
  const { config, logger, source } = deps;
  const primary = config.SERVE_ROLE === 'primary';
  const keyFile = keyFilePath(config.LAKE_DIR);
  if (primary) await preparePrimary(deps, keyFile);

  const keyStore = await KeyStore.open({
    file: keyFile,
    staticKeys: config.API_KEYS,
    pollMs: config.SNAPSHOT_POLL_MS,
    logger,
  });
  const metrics = new ServeMetrics();
  const snapshots = new SnapshotHolder({
    source,
    loaders: deps.routeGroups.map((m) => m.loader),
    pollMs: config.SNAPSHOT_POLL_MS,
    logger,
    events: metrics,
  });
  const redis = await rateLimitRedis(config, logger);
  await snapshots.start();
  // A replica never runs the pipeline: the precompute is the primary's (or a scheduled pipeline's).
  const precompute = primary ? deps.precompute : undefined;
  let precomputing = precompute !== undefined;
  let draining = false;
  const app = await buildApp({
    config,
    logger,
    snapshots,
    routeGroups: deps.routeGroups,
    keyStore,
    metrics,
    precompute: () => (precomputing ? (precompute?.progress() ?? preparing(undefined)) : null),
    rateLimitRedis: redis,
    draining: () => draining,
    ...(deps.answerVersion === undefined ? {} : { answerVersion: deps.answerVersion }),
  });
  const closeSources = () => {
    snapshots.close();
    keyStore.close();
    redis?.disconnect();
  };
  let metricsListener: MetricsListener | null = null;
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
    metricsListener = await metricsListenerFor(config, metrics, logger);
  } catch (err) {
    closeSources();
    await app.close();
    throw err;
  }
  const url = listeningUrl(app, config);
  logger.info(
    { url, role: config.SERVE_ROLE, snapshot: snapshots.current()?.id ?? null },
    `serving on ${url}`,
  );
  const precomputed =
    precompute === undefined
      ? Promise.resolve()
      : precomputeInBackground(precompute, snapshots, logger, () => (precomputing = false));
  return {
    app,
    url,
    precomputed,
    metricsUrl: metricsListener?.url ?? null,
    drain() {
      draining = true;
    },
    async stop() {
      await Promise.all([app.close(), metricsListener?.close()]);
      closeSources();
    },
  };
}
