import { userInfo } from 'node:os';
import { loadConfig } from '../../lib/config.ts';
import { runMain } from '../../lib/cli-main.ts';
import { openLake } from '../lake.ts';
import { LAKE_USER_ERRORS } from '../user-errors.ts';
import { lakeCommand } from './lake-command.ts';

/** Who runs the command, as a held snapshot's review records it: LAKE_OPERATOR, else the login name. */
const operator = (): string =>
  process.env.LAKE_OPERATOR?.trim() || process.env.USER || process.env.LOGNAME || userInfo().username;

// npm run lake -- list | show [<id>] | diff [<id>] [<against>] | publish <id> --reason "…" | runs | rollback <id> | gc --keep <n>
runMain(
  () => {
    const config = loadConfig();
    return lakeCommand(
      process.argv.slice(2),
      {
        lake: openLake(config),
        sourceStaleAfterDays: config.SOURCE_STALE_AFTER_DAYS,
        operator,
        now: () => new Date(),
      },
      { print: (text) => console.log(text) },
    );
  },
  { expected: LAKE_USER_ERRORS },
);
