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
 * Where the server logs: stdout through pino's own buffered destination, written in blocks of about 4 KB
 * rather than a write a line (a line a request made the write the largest part of a cached answer's cost),
 * and at least every second, so a quiet server's lines are not held back. Each block is written at once
 * (synchronously): none is left on the thread pool when the process ends, and it costs the event loop
 * less than handing it there (4.5 against 5.8 µs a line, pino's serialising included). What it holds is
 * written when the process exits, however it exits (process.exit, an uncaught exception: pino itself does
 * so only for an asynchronous destination); a SIGKILL loses at most the last second's lines.
 */
export function bufferedStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: true, minLength: 4096 });
  process.on('exit', () => destination.flushSync());
  setInterval(() => destination.flush(), 1000).unref();
  return destination;
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
