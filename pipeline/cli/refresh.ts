import { parseArgs } from 'node:util';
import cron from 'node-cron';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import { defaultDefinitions } from '../definitions.ts';
import { runMain, UsageError } from '../../lib/cli-main.ts';
import { EXIT_HELD, exitMeaning, pipelineCommand } from './pipeline-command.ts';

const USAGE =
  'usage: npm run refresh -- --cron "<expression>" [--no-initial-run]   e.g. --cron "0 */6 * * *" (every 6 hours)';

// npm run refresh -- --cron "<expr>": runs the pipeline once at start (unless --no-initial-run), then on the
// schedule until stopped (SIGINT/SIGTERM). A run never starts while another of ours is going (a tick during
// a long run is skipped); the lake lock also refuses a run while a separate `npm run pipeline` holds the lake.
runMain(async () => {
  const options = refreshOptions(process.argv.slice(2));
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'refresh');
  let running: Promise<number> | undefined;
  const runOnce = async (trigger: 'start' | 'schedule'): Promise<void> => {
    if (running) {
      logger.warn({ trigger }, 'pipeline run skipped: the previous run is still going');
      return;
    }
    running = defaultDefinitions(config).then((definitions) =>
      pipelineCommand({
        config,
        logger,
        definitions,
        trigger: 'scheduled',
        print: (line) => logger.info(line),
        printError: (line) => logger.warn(line),
      }),
    );
    try {
      const code = await running;
      // A held snapshot waits for a person: the refresh never publishes it, and says so at warn. A failed
      // run, a rejected source version among them, is an error.
      logger[code === 0 ? 'info' : code === EXIT_HELD ? 'warn' : 'error'](
        { trigger, exitCode: code, nextRun: task.getNextRun()?.toISOString() },
        `pipeline run ended: ${exitMeaning(code)}`,
      );
    } finally {
      running = undefined;
    }
  };
  const task = cron.schedule(options.cron, () => runOnce('schedule'), {
    name: 'pipeline refresh',
    noOverlap: true,
  });
  logger.info(
    { cron: options.cron, initialRun: options.initialRun, nextRun: task.getNextRun()?.toISOString() },
    'refresh scheduled',
  );
  if (options.initialRun) void runOnce('start');
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

function refreshOptions(argv: string[]): { cron: string; initialRun: boolean } {
  let values: { cron?: string; 'no-initial-run'?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { cron: { type: 'string' }, 'no-initial-run': { type: 'boolean' } },
      strict: true,
    }));
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
  return { cron: values.cron, initialRun: values['no-initial-run'] !== true };
}
