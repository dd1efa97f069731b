import { pino, type Logger } from 'pino';

export type { Logger };

const loggerOptions = (level: string, name: string | undefined) => ({ level, ...(name ? { name } : {}) });

/** Structured JSON logs (one object a line) on stdout for every stage, written as they are made. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', name?: string): Logger {
  return pino(loggerOptions(level, name));
}

/**
 * The same logs for the server, written to stdout asynchronously: a busy server logs a line per request,
 * and a synchronous write per line held the event loop for each. Lines made while a write is under way
 * go out together in the next one. Pino flushes what is left synchronously when the process exits
 * (`process.exit`, the end of the event loop, an uncaught exception), so no line is lost then; only a
 * process killed outright (SIGKILL) can lose the lines of its last moments.
 */
export function createAsyncLogger(level: string, name?: string): Logger {
  return pino(loggerOptions(level, name), pino.destination({ dest: 1, sync: false }));
}
