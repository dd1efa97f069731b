import { loadConfig } from '../../lib/config.ts';
import { runMain } from '../../lib/cli-main.ts';
import { openLake } from '../lake.ts';
import { LAKE_USER_ERRORS } from '../user-errors.ts';
import { sqlCommand } from './sql-command.ts';
import { LAKE_API_KEY_VARIABLE, LakeDownloadError } from './sql-download.ts';

// npm run sql [-- --snapshot <id>] [-- --url <lake listing URL>] [-- -c "<SQL>"]
runMain(
  () =>
    sqlCommand(
      process.argv.slice(2),
      openLake(loadConfig()),
      { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
      // npm runs the script from the repository's root; INIT_CWD is where the person typed the command.
      { apiKey: process.env[LAKE_API_KEY_VARIABLE], cwd: process.env.INIT_CWD ?? process.cwd() },
    ),
  { expected: [...LAKE_USER_ERRORS, LakeDownloadError] },
);
