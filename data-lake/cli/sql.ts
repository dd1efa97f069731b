import { loadConfig } from '../../lib/config.ts';
import { runMain } from '../../lib/cli-main.ts';
import { LAKE_USER_ERRORS } from '../user-errors.ts';
import { sqlCommand } from './sql-command.ts';

// npm run sql [-- --snapshot <id>] [-- -c "<SQL>"]
runMain(
  () =>
    sqlCommand(process.argv.slice(2), loadConfig().LAKE_DIR, {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
    }),
  { expected: LAKE_USER_ERRORS },
);
