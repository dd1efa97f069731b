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
 * The same logs for the server, in batches: a busy server logs a line per request, and a write per line
 * held the event loop for each. Lines are gathered and written to stdout in chunks of up to 16 KiB, at
 * most HAND_OVER_MS after the first line of each (see `batchedDestination`); what is left is written when
 * the process exits (`process.exit`, the end of the event loop, an uncaught exception), so no line is lost
 * then; only a process killed outright (SIGKILL) can lose the lines of its last moments. Each chunk is
 * written synchronously: with sonic-boom's asynchronous mode a chunk was being written on the thread pool
 * when an uncaught exception ended the process, and on Node 22 with a slow reader of stdout it was lost or
 * cut into the lines written after it. At a server's rate a synchronous chunk costs the event loop no more
 * a line (1.3-2.6 µs against 1.7-1.9 µs for 20,000 lines a second, and less CPU: no pool thread).
 */
export function createBatchedLogger(level: string, name?: string): Logger {
  const stdout = pino.destination({ dest: 1, sync: true });
  return pino(
    loggerOptions(level, name),
    batchedDestination(stdout, (chunk) => void stdout.write(chunk)),
  );
}

/** The most a chunk holds before it is handed over at once: sonic-boom's own largest write (16 KiB). */
const HAND_OVER_CHARS = 16 * 1024;

/** How long a line may wait for others before its chunk is handed over anyway. */
export const HAND_OVER_MS = 100;

/** What `batchedDestination` writes through: pino's stdout stream (sonic-boom), or a test's. */
export interface LineStream {
  write(chunk: string): unknown;
  /** Writes what the stream holds, synchronously. */
  flushSync(): void;
}

/**
 * Hands `stream` the lines gathered as one write: once they reach HAND_OVER_CHARS, or HAND_OVER_MS after
 * the first of them. Why: sonic-boom measures the UTF-8 length of the string it is still accumulating on
 * every write and writes whenever no write is under way, so a line per request cost about 4 µs of the
 * event loop and a write every few requests (on the 2-core machine of docs/figures); joined first, a
 * line costs 2.6 µs and stdout is written once per 16 KiB or 100 ms. When
 * the process exits, `stream` is flushed and the lines still held are given to
 * `writeSyncAtExit`, in that order.
 */
export function batchedDestination(
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
      if (lines.push(line) === 1) setTimeout(handOver, HAND_OVER_MS).unref();
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
