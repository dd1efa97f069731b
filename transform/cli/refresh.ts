import { parseArgs } from 'node:util';
import cron from 'node-cron';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import { defaultCatalog } from '../catalog.ts';
import { runMain, UsageError } from './cli-main.ts';
import { pipelineCommand } from './pipeline-command.ts';

const USAGE = 'usage: npm run refresh -- --cron "<expression>"   e.g. --cron "0 */6 * * *" (every 6 hours)';

// npm run refresh -- --cron "<expr>": runs the pipeline on a schedule until stopped (SIGINT/SIGTERM).
// node-cron's noOverlap skips a tick while a run is still going; the lake lock also refuses a tick while
// a separately started `npm run pipeline` holds the lake.
runMain(async () => {
  const expression = cronExpression(process.argv.slice(2));
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'refresh');
  let running: Promise<number> | undefined;
  const task = cron.schedule(
    expression,
    async () => {
      running = defaultCatalog(config).then((catalog) =>
        pipelineCommand({
          config,
          logger,
          catalog,
          print: (line) => logger.info(line),
          printError: (line) => logger.warn(line),
        }),
      );
      const code = await running;
      logger.info(
        { exitCode: code, nextRun: task.getNextRun()?.toISOString() },
        'scheduled pipeline run ended',
      );
    },
    { name: 'pipeline refresh', noOverlap: true },
  );
  logger.info({ cron: expression, nextRun: task.getNextRun()?.toISOString() }, 'refresh scheduled');
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  logger.info({ signal }, 'stopping refresh; waiting for a run in progress to end');
  await task.stop();
  await running?.catch(() => undefined);
  await task.destroy();
  return 0;
});

function cronExpression(argv: string[]): string {
  let values: { cron?: string };
  try {
    ({ values } = parseArgs({ args: argv, options: { cron: { type: 'string' } }, strict: true }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.cron === undefined) throw new UsageError(USAGE);
  if (!cron.validate(values.cron)) {
    const detail = cron
      .validateDetailed(values.cron)
      .errors.map((e) => `${e.field}: ${e.message}`)
      .join('; ');
    throw new UsageError(
      `--cron "${values.cron}" is not a valid cron expression${detail ? ` (${detail})` : ''}\n${USAGE}`,
    );
  }
  return values.cron;
}
