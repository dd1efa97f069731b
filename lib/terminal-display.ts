import type { Config } from '../schemas/config.ts';
import { renderProgressLines, type ProgressBoard, type ProgressLine } from './progress-board.ts';
import { LineTimesLeft } from './run-estimate.ts';

export interface TerminalDisplay {
  /** Writes a block of lines above the live progress lines, where it stays (nothing redraws over it). */
  print(block: string): void;
  /** Draws the board one last time and stops following it. */
  close(): void;
}

export interface TerminalDisplayOptions {
  stream: { write(chunk: string): unknown };
  /** Milliseconds since an arbitrary origin (the board's clock). */
  now?: () => number;
  /** Least time between two redraws (default 100 ms); changes in between are drawn once it has passed. */
  redrawEveryMs?: number;
  /** A last live line under the steps, e.g. the whole run's time left; none while it gives null. */
  summary?: () => string | null;
}

/** Cursor to the start of the line `n` lines up, then clear to the end of the screen. */
const eraseUp = (n: number) => (n > 0 ? `\x1b[${n}F\x1b[J` : '\r\x1b[J');

/**
 * Draws a progress board on a terminal, a line per step, redrawn in place. Lines of steps that are done
 * when a block is printed are left above it for good, so a printed block (the one-time API key) sits
 * below the steps that came before it and is never drawn over.
 */
export function createTerminalDisplay(
  board: ProgressBoard,
  options: TerminalDisplayOptions,
): TerminalDisplay {
  const { stream } = options;
  const now = options.now ?? (() => performance.now());
  const redrawEveryMs = options.redrawEveryMs ?? 100;
  /** Board lines before this index are printed for good; the rest are the live region. */
  let settled = 0;
  let drawn = 0;
  let lastDrawAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;

  // One reader of the lines' times left, so that none of them grows between redraws but by work added.
  const timesLeft = new LineTimesLeft();
  const render = (lines: readonly Readonly<ProgressLine>[]) =>
    renderProgressLines(lines, now(), (line, nowMs) => timesLeft.read(line, nowMs));
  const liveLines = () => {
    const summary = options.summary?.() ?? null;
    return [...render(board.snapshot().slice(settled)), ...(summary === null ? [] : [summary])];
  };
  const draw = () => {
    clearTimeout(timer);
    timer = undefined;
    lastDrawAt = now();
    const lines = liveLines();
    stream.write(eraseUp(drawn) + lines.map((line) => `${line}\n`).join(''));
    drawn = lines.length;
  };
  const unsubscribe = board.subscribe(() => {
    const wait = lastDrawAt + redrawEveryMs - now();
    if (wait <= 0) draw();
    else timer ??= setTimeout(draw, wait).unref();
  });

  return {
    print(block) {
      const lines = board.snapshot();
      const firstRunning = lines.findIndex((line) => line.endedAtMs === undefined);
      const upTo = firstRunning === -1 ? lines.length : firstRunning;
      const done = render(lines.slice(settled, upTo));
      stream.write(eraseUp(drawn) + [...done, block].map((line) => `${line}\n`).join(''));
      settled = Math.max(settled, upTo);
      drawn = 0;
      draw();
    },
    close() {
      unsubscribe();
      draw();
    },
  };
}

/** LOG_FORMAT: `auto` draws progress when a person watches (stdout and stderr are terminals). */
export function onTerminal(
  config: Pick<Config, 'LOG_FORMAT'>,
  streams: { stdout: { isTTY?: boolean }; stderr: { isTTY?: boolean } } = process,
): boolean {
  if (config.LOG_FORMAT !== 'auto') return config.LOG_FORMAT === 'terminal';
  return streams.stdout.isTTY === true && streams.stderr.isTTY === true;
}
