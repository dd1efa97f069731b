import { setTimeout as delay } from 'node:timers/promises';
import { createLogger } from '../lib/log.ts';
import type { Config } from '../schemas/config.ts';
import { defaultCatalog } from '../transform/catalog.ts';
import { runPipeline } from '../transform/pipeline/run-pipeline.ts';
import { createApiModules } from './api-modules.ts';
import { limitHeapGrowth } from './heap-growth.ts';
import { startService } from './service.ts';
import { lakeSnapshotSource } from './snapshot/lake-snapshot-source.ts';

/**
 * Serves with the real lake, pipeline and API modules until SIGINT/SIGTERM; returns the exit code when
 * the server could not start.
 */
export async function serveCommand(config: Config): Promise<number | undefined> {
  limitHeapGrowth(config.SERVE_HEAP_GROWTH_PERCENT);
  const logger = createLogger(config.LOG_LEVEL, 'serve');
  let service;
  try {
    service = await startService({
      config,
      logger,
      apiModules: createApiModules(),
      source: lakeSnapshotSource(config.LAKE_DIR),
      publishFirstSnapshot: async () => {
        const result = await runPipeline({ config, logger, catalog: await defaultCatalog(config) });
        logger.info({ snapshot: result.snapshotId, status: result.status }, 'first pipeline run done');
      },
      // stderr: the JSON logs go to stdout, and a key must not end up wherever they are collected.
      print: (block) => process.stderr.write(`${block}\n`),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    console.error(
      code === 'EADDRINUSE' || code === 'EACCES'
        ? `error: cannot listen on ${config.HOST}:${config.PORT} (${code}); set PORT or HOST`
        : `error: the server could not start: ${(err as Error).message}`,
    );
    return 1;
  }

  const running = service;
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      running.drain();
      logger.info(
        { signal, drainMs: config.SERVE_DRAIN_MS },
        'draining: /healthz answers 503, requests still served',
      );
      // In-flight requests get a bounded time after the drain; a stuck one must not keep the process alive.
      setTimeout(() => process.exit(1), config.SERVE_DRAIN_MS + 10_000).unref();
      delay(config.SERVE_DRAIN_MS)
        .then(() => {
          logger.info('shutting down: finishing requests in flight');
          return running.stop();
        })
        .then(
          () => process.exit(0),
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }
  return undefined;
}
