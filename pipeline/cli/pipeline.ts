import { loadConfig } from '../../lib/config.ts';
import { createLogger, terminalLogDestination } from '../../lib/log.ts';
import { ProgressBoard, sourceStepsOnOneLine } from '../../lib/progress-board.ts';
import { createTerminalDisplay, onTerminal } from '../../lib/terminal-display.ts';
import { defaultDefinitions } from '../definitions.ts';
import { runMain } from '../../lib/cli-main.ts';
import { pauseHookFromEnv } from './pause-hook.ts';
import { pipelineCommand } from './pipeline-command.ts';

// npm run pipeline: one run over the configured sources (see docs/pipeline-and-lake.md).
runMain(async () => {
  const config = loadConfig();
  const onStep = pauseHookFromEnv(process.env);
  const options = { config, definitions: await defaultDefinitions(config), ...(onStep ? { onStep } : {}) };
  if (!onTerminal(config)) {
    // JSON logs on stdout for whatever collects them; the outcome on stdout, failures on stderr.
    return pipelineCommand({
      ...options,
      logger: createLogger(config.LOG_LEVEL, 'pipeline'),
      print: (line) => console.log(line),
      printError: (line) => console.error(line),
    });
  }
  // A person watching: the steps drawn in place, warnings as plain lines, and the outcome below them.
  const board = new ProgressBoard({ lineFor: sourceStepsOnOneLine });
  const display = createTerminalDisplay(board, { stream: process.stderr });
  try {
    return await pipelineCommand({
      ...options,
      logger: createLogger(config.LOG_LEVEL, 'pipeline', terminalLogDestination(display.print)),
      progress: board,
      print: display.print,
      printError: display.print,
    });
  } finally {
    display.close();
  }
});
