import { ConfigError, loadConfig } from '../../lib/config.ts';
import { keyFilePath } from '../auth/key-file.ts';
import { runKeysCli } from '../auth/keys-cli.ts';

try {
  const config = loadConfig();
  process.exitCode = await runKeysCli(process.argv.slice(2), keyFilePath(config.LAKE_DIR), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `error: ${(err as Error).message}`);
  process.exitCode = 1;
}
