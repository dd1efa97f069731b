import type { Logger } from './log.ts';

export interface ProgressTask {
  /** Counts n more units done (1 when omitted). */
  tick(n?: number): void;
  /** Ends the step with its final count, rate and duration; later calls do nothing. */
  done(): void;
}

export interface Progress {
  start(step: string, options: { total?: number; unit: string }): ProgressTask;
}

export interface ProgressOptions {
  logger: Pick<Logger, 'info'>;
  /** Where the live line goes when it is a terminal (default: stderr, so stdout stays clean for data). */
  stream?: { isTTY?: boolean; write(chunk: string): unknown };
  /** Milliseconds since an arbitrary origin. */
  now?: () => number;
  /** Least time between two log lines when the stream is not a terminal. */
  logEveryMs?: number;
  /** Least time between two redraws of the terminal line. */
  redrawEveryMs?: number;
  /** Draw on the stream (true) or log (false); default: whether the stream is a terminal. */
  onTerminal?: boolean;
}

/**
 * Reports long steps. On a terminal: one line, redrawn in place, with the count, rate and (when the total is
 * known) percentage and time left. Elsewhere (CI, files, a service's logs): a structured log line at most
 * every `logEveryMs`, and a final line with the count, rate and duration.
 */
export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const logEveryMs = options.logEveryMs ?? 2000;
  const redrawEveryMs = options.redrawEveryMs ?? 100;
  const onTerminal = options.onTerminal ?? stream.isTTY === true;

  return {
    start(step, { total, unit }) {
      const startedAt = now();
      let count = 0;
      let lastReportAt = startedAt;
      let finished = false;

      const snapshot = () => {
        const elapsedMs = now() - startedAt;
        return { count, elapsedMs, ratePerSec: elapsedMs > 0 ? (count * 1000) / elapsedMs : 0 };
      };

      const measure = (n: number, of: number | undefined, ratePerSec: number) => {
        const rate = ratePerSec > 0 ? `${formatCount(ratePerSec)}/s` : '–/s';
        if (of === undefined || of <= 0) return { text: `${formatCount(n)} ${unit}, ${rate}`, fields: {} };
        const percent = Math.min(100, (n / of) * 100);
        const leftMs = ratePerSec > 0 ? (Math.max(0, of - n) / ratePerSec) * 1000 : undefined;
        return {
          text:
            `${formatCount(n)}/${formatCount(of)} ${unit} (${percent.toFixed(1)}%), ${rate}` +
            (leftMs === undefined ? '' : `, ${formatDuration(leftMs)} left`),
          fields: {
            total: of,
            percent: round(percent),
            ...(leftMs === undefined ? {} : { leftMs: Math.round(leftMs) }),
          },
        };
      };

      const report = () => {
        const { elapsedMs, ratePerSec } = snapshot();
        const measured = measure(count, total, ratePerSec);
        if (onTerminal) {
          stream.write(`\r${step}: ${measured.text}\x1b[K`);
        } else {
          options.logger.info(
            {
              step,
              count,
              unit,
              ...measured.fields,
              ratePerSec: round(ratePerSec),
              elapsedMs: Math.round(elapsedMs),
            },
            `${step}: ${measured.text}`,
          );
        }
      };

      if (onTerminal) report();

      return {
        tick(n = 1) {
          if (finished) return;
          count += n;
          const at = now();
          if (at - lastReportAt >= (onTerminal ? redrawEveryMs : logEveryMs)) {
            lastReportAt = at;
            report();
          }
        },
        done() {
          if (finished) return;
          finished = true;
          const { elapsedMs, ratePerSec } = snapshot();
          const text = `${formatCount(count)} ${unit} in ${formatDuration(elapsedMs)} (${formatCount(ratePerSec)}/s)`;
          if (onTerminal) {
            stream.write(`\r${step}: ${text}\x1b[K\n`);
          } else {
            options.logger.info(
              { step, count, unit, durationMs: Math.round(elapsedMs), ratePerSec: round(ratePerSec) },
              `${step}: done, ${text}`,
            );
          }
        },
      };
    },
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** "850ms", "12.3s", "4m05s", "1h02m". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return hours > 0
    ? `${hours}h${String(minutes).padStart(2, '0')}m`
    : `${minutes}m${String(seconds).padStart(2, '0')}s`;
}

/** Reports every step to each of `progresses` (e.g. the logs, and a board a server reads). */
export function teeProgress(...progresses: readonly Progress[]): Progress {
  return {
    start(step, options) {
      const tasks = progresses.map((p) => p.start(step, options));
      return {
        tick: (n) => tasks.forEach((task) => task.tick(n)),
        done: () => tasks.forEach((task) => task.done()),
      };
    },
  };
}

/** Progress that reports nothing: for a caller with no one to tell. */
export const silentProgress: Progress = {
  start: () => ({ tick: () => undefined, done: () => undefined }),
};
