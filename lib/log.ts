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
 * and a synchronous write per line held the event loop for each. The lines made in one turn of the event
 * loop go to pino's asynchronous stdout stream as one string at the end of that turn (see
 * `turnBatchedDestination`). What is left is written synchronously when the process exits
 * (`process.exit`, the end of the event loop, an uncaught exception), so no line is lost then; only a
 * process killed outright (SIGKILL) can lose the lines of its last moments.
 */
export function createAsyncLogger(level: string, name?: string): Logger {
  const stdout = pino.destination({ dest: 1, sync: false });
  // At exit, the held lines go through a synchronous stream: the asynchronous one would start a write
  // that the exiting process may not finish.
  const atExit = (chunk: string) => void pino.destination({ dest: 1, sync: true }).write(chunk);
  return pino(loggerOptions(level, name), turnBatchedDestination(stdout, atExit));
}

/**
 * The most a chunk holds before it is handed over without waiting for the turn's end: sonic-boom's own
 * largest write (16 KiB), so a write still under way when the process dies loses no more than it did.
 */
const HAND_OVER_CHARS = 16 * 1024;

/** What `turnBatchedDestination` writes through: pino's asynchronous stream (sonic-boom), or a test's. */
export interface LineStream {
  write(chunk: string): unknown;
  /** Writes what the stream holds, synchronously. */
  flushSync(): void;
}

/**
 * Hands `stream` the lines made during one turn of the event loop as one write, at the end of the turn,
 * or as soon as they reach HAND_OVER_CHARS. Why: sonic-boom measures the UTF-8 length of the string it is
 * still accumulating on every write, so a line per request costs more the more lines wait (about 4 µs a
 * line on the 2-core machine of docs/figures, against 2.4 µs handed over once per turn); joined first, it
 * is one measure per chunk. When the process exits, `stream` is flushed and the lines still held are
 * given to `writeSyncAtExit`, in that order.
 */
export function turnBatchedDestination(
  stream: LineStream,
  writeSyncAtExit: (chunk: string) => void,
): DestinationStream {
  let lines: string[] = [];
  let held = 0;
  const take = () => {
    const chunk = lines.length === 1 ? lines[0]! : lines.join('');
    lines = [];
    held = 0;
    return chunk;
  };
  const handOver = () => {
    if (lines.length > 0) stream.write(take());
  };
  process.on('exit', () => {
    stream.flushSync();
    if (lines.length > 0) writeSyncAtExit(take());
  });
  return {
    write(line: string) {
      held += line.length;
      if (lines.push(line) === 1) setImmediate(handOver);
      if (held >= HAND_OVER_CHARS) handOver();
    },
  };
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
