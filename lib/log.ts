import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

const loggerOptions = (level: string, name: string | undefined) => ({ level, ...(name ? { name } : {}) });

/**
 * Structured JSON logs (one object a line) for every stage, written as they are made: on stdout, or to
 * `destination`.
 */
export function createLogger(
  level: string = process.env.LOG_LEVEL ?? 'info',
  name?: string,
  destination?: DestinationStream,
): Logger {
  return pino(loggerOptions(level, name), destination);
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

const LEVEL_NAMES: Record<number, string> = { 40: 'warn', 50: 'error', 60: 'fatal' };

/**
 * Where a logger writes when a person watches a terminal that shows progress instead: warnings and errors
 * as one readable line each (`warn: <message>`, with the error's message when one is attached), the rest
 * left out (the progress display says what the info lines would).
 */
export function terminalLogDestination(print: (line: string) => void): DestinationStream {
  return {
    write(line: string) {
      const entry = JSON.parse(line) as { level: number; msg?: string; err?: { message?: string } };
      const level = LEVEL_NAMES[entry.level];
      if (level === undefined) return;
      const cause = entry.err?.message === undefined ? '' : `: ${entry.err.message}`;
      print(`${level}: ${entry.msg ?? ''}${cause}`);
    },
  };
}
