import { loadConfig } from '../../../lib/config.ts';
import { createLogger } from '../../../lib/log.ts';
import { runMain, UsageError } from '../../../lib/cli-main.ts';
import { pauseHookFromEnv } from '../../../pipeline/cli/pause-hook.ts';
import { pipelineCommand } from '../../../pipeline/cli/pipeline-command.ts';
import { demoDefinitions } from './demo-definitions.ts';

// `npm run pipeline` over the demo source, as its own process, for the crash tests: LAKE_DIR names the
// lake, DEMO_SOURCE_DIR the directory holding prices.csv, PIPELINE_PAUSE_AT where to stop and wait.
runMain(async () => {
  const sourceDir = process.env.DEMO_SOURCE_DIR;
  if (!sourceDir) throw new UsageError('DEMO_SOURCE_DIR must name the demo source directory');
  const config = loadConfig();
  const onStep = pauseHookFromEnv(process.env);
  return pipelineCommand({
    config,
    logger: createLogger(config.LOG_LEVEL),
    definitions: demoDefinitions(sourceDir),
    codeVersion: 'test',
    ...(onStep ? { onStep } : {}),
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
  });
});
