import { loadConfig } from '../../lib/config.ts';
import { runMain } from '../../lib/cli-main.ts';
import { LAKE_USER_ERRORS } from '../user-errors.ts';
import { lakeCommand } from './lake-command.ts';

// npm run lake -- list | show <id> | rollback <id> | gc --keep <n>
runMain(
  () => lakeCommand(process.argv.slice(2), loadConfig().LAKE_DIR, { print: (text) => console.log(text) }),
  { expected: LAKE_USER_ERRORS },
);
