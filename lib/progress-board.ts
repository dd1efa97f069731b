import { formatCount, formatDuration, type Progress, type ProgressTask } from './progress.ts';

/** One line of the board: a step, or several steps that share a line (see `lineFor`). */
export interface ProgressLine {
  label: string;
  unit: string;
  count: number;
  /** Known when every step of the line declared one. */
  total: number | undefined;
  startedAtMs: number;
  /** When the line's last running step ended; undefined while one runs. */
  endedAtMs: number | undefined;
  /** Steps of the line still running. */
  running: number;
}

export interface ProgressBoardOptions {
  /** Milliseconds since an arbitrary origin. */
  now?: () => number;
  /**
   * The line a step is shown on (default: its own). Consecutive steps sharing a line add up their counts,
   * so a job of many short steps (ingest's "read <source>" per source) takes one line.
   */
  lineFor?: (step: string) => string;
}

/**
 * Progress kept as state rather than written out: a line per step, in the order steps started. A terminal
 * display draws it, and a server reads it to say how far a run is (`running()`).
 */
export class ProgressBoard implements Progress {
  private readonly lines: ProgressLine[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;
  private readonly lineFor: (step: string) => string;

  constructor(options: ProgressBoardOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.lineFor = options.lineFor ?? ((step) => step);
  }

  start(step: string, { total, unit }: { total?: number; unit: string }): ProgressTask {
    const label = this.lineFor(step);
    // Only the newest line takes more steps: a line printed for good (see TerminalDisplay) never changes.
    let line = this.lines.at(-1);
    if (line?.label !== label) {
      line = { label, unit, count: 0, total, startedAtMs: this.now(), endedAtMs: undefined, running: 0 };
      this.lines.push(line);
    } else {
      line.total = line.total === undefined || total === undefined ? undefined : line.total + total;
      line.endedAtMs = undefined;
    }
    const shown = line;
    shown.running++;
    this.changed();
    let finished = false;
    return {
      tick: (n = 1) => {
        if (finished) return;
        shown.count += n;
        this.changed();
      },
      done: () => {
        if (finished) return;
        finished = true;
        if (--shown.running === 0) shown.endedAtMs = this.now();
        this.changed();
      },
    };
  }

  /** Every line, in the order its first step started. */
  snapshot(): readonly Readonly<ProgressLine>[] {
    return this.lines.map((line) => ({ ...line }));
  }

  /** The line started last among those still running: the innermost of nested steps, or null. */
  running(): Readonly<ProgressLine> | null {
    const line = this.lines.findLast((l) => l.endedAtMs === undefined);
    return line === undefined ? null : { ...line };
  }

  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** Time a running line still needs at its rate so far; undefined when unknown (no total, nothing counted). */
export function timeLeftMs(line: Readonly<ProgressLine>, nowMs: number): number | undefined {
  const elapsedMs = nowMs - line.startedAtMs;
  if (line.total === undefined || line.count === 0 || elapsedMs <= 0) return undefined;
  return (Math.max(0, line.total - line.count) * elapsedMs) / line.count;
}

/** A board's `lineFor` that shows ingest's per-source steps ("read <source>", "publish <source>") on one line each. */
export const sourceStepsOnOneLine = (step: string): string =>
  step.replace(/^(read|publish) .*/, '$1 sources');

const BAR_WIDTH = 24;

/**
 * The board as text, a line each: a mark (✓ done, › running), the label, a bar when the total is known
 * and the figures, e.g. `› simulate clusters  [██████░░░░░░░░░░░░░░░░░░]  3,441/13,764 clusters  25%  1m30s left`;
 * a running line's time left is `leftMs`'s (by default its rate's, `timeLeftMs`).
 */
export function renderProgressLines(
  lines: readonly Readonly<ProgressLine>[],
  nowMs: number,
  leftMs: (line: Readonly<ProgressLine>, nowMs: number) => number | undefined = timeLeftMs,
): string[] {
  const width = Math.max(0, ...lines.map((l) => l.label.length));
  return lines.map((line) => {
    const done = line.endedAtMs !== undefined;
    const elapsedMs = (line.endedAtMs ?? nowMs) - line.startedAtMs;
    const known = line.total !== undefined && line.total > 0;
    const fraction = done ? 1 : known ? Math.min(1, line.count / line.total!) : 0;
    const filled = Math.round(fraction * BAR_WIDTH);
    const bar = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`;
    const counted = known
      ? `${formatCount(line.count)}/${formatCount(line.total!)} ${line.unit}`
      : `${formatCount(line.count)} ${line.unit}`;
    let status: string;
    if (done) status = `done in ${formatDuration(elapsedMs)}`;
    else if (!known) status = formatDuration(elapsedMs);
    else {
      const left = leftMs(line, nowMs);
      status = `${Math.floor(fraction * 100)}%${left === undefined ? '' : `  ${formatDuration(left)} left`}`;
    }
    return `${done ? '✓' : '›'} ${line.label.padEnd(width)}  ${bar}  ${counted}  ${status}`;
  });
}
