import type { Config } from '../schemas/config.ts';
import type { Logger } from '../lib/log.ts';
import type { ApiModule, ZodApp } from './api-module.ts';
import { buildApp } from './app.ts';
import { ensureKey } from './auth/ensure-key.ts';
import { keyAnnouncement } from './auth/key-announcement.ts';
import { keyFilePath } from './auth/key-file.ts';
import { KeyStore } from './auth/key-store.ts';
import { RedisRateLimiter } from './http/redis-rate-limiter.ts';
import { SnapshotHolder, type SnapshotSource } from './snapshot/snapshot-holder.ts';

export interface ServiceDeps {
  config: Config;
  logger: Logger;
  apiModules: readonly ApiModule<unknown>[];
  source: SnapshotSource;
  /** Builds and publishes a snapshot; run once by a primary when nothing is published yet. */
  publishFirstSnapshot: () => Promise<void>;
  /** Where the one-time key announcement (a block of lines) goes: the terminal, never the logs. */
  print: (block: string) => void;
}

export interface RunningService {
  app: ZodApp;
  url: string;
  /** From now on /healthz answers 503 ("draining") so a load balancer stops sending; requests are still answered. */
  drain(): void;
  stop(): Promise<void>;
}

/**
 * `npm start` after configuration. A primary makes a first snapshot if there is none and a key if none
 * is configured; a replica (SERVE_ROLE=replica) writes nothing, as the pipeline and `npm run keys` own the
 * lake and the key file. Then the server. With no snapshot (a replica before the first publish, or a
 * failed first pipeline run, which is logged) the server starts anyway: data routes and /healthz answer
 * 503 until a snapshot is published, which the holder then picks up.
 */
export async function startService(deps: ServiceDeps): Promise<RunningService> {
  const { config, logger, source } = deps;
  const primary = config.SERVE_ROLE === 'primary';
  if (primary && (await source.currentId()) === null) {
    logger.info('no snapshot is published yet: running the pipeline once before serving');
    try {
      await deps.publishFirstSnapshot();
    } catch (err) {
      logger.error({ err }, 'first pipeline run failed; serving without data until a snapshot is published');
    }
  }

  const keyFile = keyFilePath(config.LAKE_DIR);
  const created = primary ? await ensureKey(keyFile, config.API_KEYS) : null;
  if (created) {
    deps.print(keyAnnouncement(created.id, created.key));
  }

  const keyStore = await KeyStore.open({
    file: keyFile,
    staticKeys: config.API_KEYS,
    pollMs: config.SNAPSHOT_POLL_MS,
    logger,
  });
  const snapshots = new SnapshotHolder({
    source,
    modules: deps.apiModules.map((m) => m.serving),
    pollMs: config.SNAPSHOT_POLL_MS,
    logger,
  });
  const rateLimiter =
    config.RATE_LIMIT_REDIS_URL === undefined
      ? undefined
      : new RedisRateLimiter({
          url: config.RATE_LIMIT_REDIS_URL,
          limit: config.RATE_LIMIT_PER_MINUTE,
          windowMs: 60_000,
          logger,
        });
  await rateLimiter?.ready().catch((err: unknown) => {
    logger.warn({ err }, 'rate limit: Redis unavailable at start; counting in this process until it answers');
  });
  await snapshots.start();
  let draining = false;
  const app = await buildApp({
    config,
    logger,
    snapshots,
    apiModules: deps.apiModules,
    keyStore,
    rateLimiter,
    draining: () => draining,
  });
  const closeSources = () => {
    snapshots.close();
    keyStore.close();
    rateLimiter?.close();
  };
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    closeSources();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  logger.info(
    { url, role: config.SERVE_ROLE, snapshot: snapshots.current()?.id ?? null },
    `serving on ${url}`,
  );
  return {
    app,
    url,
    drain() {
      draining = true;
    },
    async stop() {
      await app.close();
      closeSources();
    },
  };
}
