import { configSchema, type Config } from '../schemas/config.ts';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid environment variable ${variable}: ${detail}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration; throws a ConfigError naming the first wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const known = Object.fromEntries(
    Object.keys(configSchema.shape).map((name) => [name, env[name] === '' ? undefined : env[name]]),
  );
  const parsed = configSchema.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(String(issue.path[0] ?? '?'), issue.message);
  }
  return parsed.data;
}
