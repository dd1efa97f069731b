import { loadConfig } from '../../../lib/config.ts';
import { createLogger } from '../../../lib/log.ts';
import { runMain, UsageError } from '../../../lib/cli-main.ts';
import { pipelineCommand } from '../../../pipeline/cli/pipeline-command.ts';
import { remDefinitions, RESULTS_PAUSE_MARKER } from './rem-lake.ts';

// `npm run pipeline` over the REM fixture, as its own process: LAKE_DIR names the lake, REM_SOURCE_DIR the
// fixture directory. With REM_PAUSE_AFTER_RESULTS=1 (the crash test) the run stops for good once its first
// results are on the log.
runMain(async () => {
  const sourceDir = process.env.REM_SOURCE_DIR;
  if (!sourceDir) throw new UsageError('REM_SOURCE_DIR must name the REM fixture directory');
  const config = loadConfig();
  const afterResults = async () => {
    process.stderr.write(`${RESULTS_PAUSE_MARKER}\n`);
    setInterval(() => undefined, 60_000);
    await new Promise<never>(() => undefined);
  };
  return pipelineCommand({
    config,
    logger: createLogger(config.LOG_LEVEL),
    definitions: remDefinitions(
      sourceDir,
      process.env.REM_PAUSE_AFTER_RESULTS === '1' ? { afterResults } : {},
    ),
    codeVersion: 'test',
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
  });
});
