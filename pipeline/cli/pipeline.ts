import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import { defaultDefinitions } from '../definitions.ts';
import { runMain } from '../../lib/cli-main.ts';
import { pauseHookFromEnv } from './pause-hook.ts';
import { pipelineCommand } from './pipeline-command.ts';

// npm run pipeline: one run over the configured sources (see docs/pipeline-and-lake.md).
runMain(async () => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'pipeline');
  const onStep = pauseHookFromEnv(process.env);
  return pipelineCommand({
    config,
    logger,
    definitions: await defaultDefinitions(config),
    ...(onStep ? { onStep } : {}),
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
  });
});
