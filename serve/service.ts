import type { Config } from '../schemas/config.ts';
import type { Logger } from '../lib/log.ts';
import type { ApiModule, ZodApp } from './api-module.ts';
import { buildApp } from './app.ts';
import { ensureKey } from './auth/ensure-key.ts';
import { keyAnnouncement } from './auth/key-announcement.ts';
import { keyFilePath } from './auth/key-file.ts';
import { KeyStore } from './auth/key-store.ts';
import { SnapshotHolder, type SnapshotSource } from './snapshot/snapshot-holder.ts';

export interface ServiceDeps {
  config: Config;
  logger: Logger;
  apiModules: readonly ApiModule<unknown>[];
  source: SnapshotSource;
  /** Builds and publishes a snapshot; run once when nothing is published yet. */
  publishFirstSnapshot: () => Promise<void>;
  /** Where the one-time key announcement (a block of lines) goes: the terminal, never the logs. */
  print: (block: string) => void;
}

export interface RunningService {
  app: ZodApp;
  url: string;
  stop(): Promise<void>;
}

/**
 * `npm start` after configuration: a first snapshot if there is none, a key if none is configured, then
 * the server. A failed first pipeline run is logged and the server starts anyway: data routes answer 503
 * until a snapshot is published (e.g. by `npm run pipeline`), which the holder then picks up.
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
  const snapshots = new SnapshotHolder({
    source,
    modules: deps.apiModules.map((m) => m.serving),
    pollMs: config.SNAPSHOT_POLL_MS,
    logger,
  });
  await snapshots.start();
  const app = await buildApp({ config, logger, snapshots, apiModules: deps.apiModules, keyStore });
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    snapshots.close();
    keyStore.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  logger.info({ url, snapshot: snapshots.current()?.id ?? null }, `serving on ${url}`);
  return {
    app,
    url,
    async stop() {
      snapshots.close();
      keyStore.close();
      await app.close();
    },
  };
}
