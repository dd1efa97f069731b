import { ConfigError, loadConfig } from '../lib/config.ts';
import type { Config } from '../schemas/config.ts';

// npm start. The configuration is checked before the server's modules (DuckDB, the route groups) are
// loaded, so a wrong variable is reported at once, in one line.
let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`error: ${err.message}`);
  process.exit(1);
}

const { startCommand } = await import('./start-command.ts');
const exitCode = await startCommand(config);
if (exitCode !== undefined) process.exit(exitCode);
