import { timeLeftMs, type ProgressLine } from './progress-board.ts';

/*
 * How long a whole run still needs, not just its running step: a fresh lake's precompute runs a small stage
 * (the sample's states) before the whole one, and the small stage's steps, timed, are the plan for the big
 * one's. Each step's time scales with its work: a step not started yet takes what it took in the plan times
 * how much more work of its unit this run has than the plan had (13,432 clusters against 332: 40 times), as
 * far as a started step of this run says; fixed steps (publishing, one snapshot to load) keep their time.
 */

/** Lines of a board, one run's, in start order. */
type Lines = readonly Readonly<ProgressLine>[];

/** Each line with how many lines of the same label came before it: a step's identity across two runs. */
const keyed = (lines: Lines) => {
  const seen = new Map<string, number>();
  return lines.map((line) => {
    const n = seen.get(line.label) ?? 0;
    seen.set(line.label, n + 1);
    return { key: `${line.label}#${n}`, line };
  });
};

/** Whether `inner` started after `outer` and (so far) ran within it: a step nested in another. */
const nestedIn = (inner: Readonly<ProgressLine>, outer: Readonly<ProgressLine>, nowMs: number) =>
  inner !== outer &&
  inner.startedAtMs >= outer.startedAtMs &&
  (outer.endedAtMs === undefined || (inner.endedAtMs ?? nowMs) <= outer.endedAtMs);

/** A line's own time: its duration less that of the steps nested in it (which count it themselves). */
function ownMs(line: Readonly<ProgressLine>, lines: Lines, nowMs: number): number {
  const nested = lines
    .filter((other) => nestedIn(other, line, nowMs))
    // Only the outermost of nested lines, so a step nested two deep is subtracted once.
    .filter((other, _, all) => !all.some((outer) => nestedIn(other, outer, nowMs)));
  const spent = nested.reduce((sum, other) => sum + ((other.endedAtMs ?? nowMs) - other.startedAtMs), 0);
  return Math.max(0, (line.endedAtMs ?? nowMs) - line.startedAtMs - spent);
}

/** Per unit, this run's work against the plan's: the newest started line of the unit that both know a total of. */
function workScales(plan: Lines, run: Lines): Map<string, number> {
  const planTotals = new Map(keyed(plan).map(({ key, line }) => [key, line.total]));
  const scale = new Map<string, number>();
  for (const { key, line } of keyed(run)) {
    const before = planTotals.get(key);
    if (line.total !== undefined && before !== undefined && before > 0)
      scale.set(line.unit, line.total / before);
  }
  return scale;
}

/**
 * Milliseconds the run (`run`, its lines so far) still needs, by the plan of a finished earlier run of the
 * same steps (`plan`): a step done needs nothing; a running one what its own rate says when it counts towards
 * a known total and runs no nested step, else its plan time (scaled) less its own time so far; a step not
 * started its plan time scaled (see above). A step of the run the plan lacks adds its own estimate, if any.
 */
export function runTimeLeftMs(plan: Lines, run: Lines, nowMs: number): number {
  const planEnd = Math.max(0, ...plan.map((line) => line.endedAtMs ?? 0));
  const planned = keyed(plan);
  const current = new Map(keyed(run).map(({ key, line }) => [key, line]));
  const planTotals = new Map(planned.map(({ key, line }) => [key, line.total]));
  const scale = workScales(plan, run);
  let leftMs = 0;
  for (const { key, line: step } of planned) {
    const planMs = ownMs(step, plan, planEnd) * (scale.get(step.unit) ?? 1);
    const now = current.get(key);
    if (now === undefined) leftMs += planMs;
    else if (now.endedAtMs === undefined) {
      const runsNested = run.some((other) => other.endedAtMs === undefined && nestedIn(other, now, nowMs));
      const byRate = runsNested ? undefined : timeLeftMs(now, nowMs);
      leftMs += byRate ?? Math.max(0, planMs - ownMs(now, run, nowMs));
    }
  }
  for (const { key, line } of keyed(run)) {
    if (!planTotals.has(key) && line.endedAtMs === undefined) leftMs += timeLeftMs(line, nowMs) ?? 0;
  }
  return leftMs;
}

/** A time left as a range; its ends are equal once the work left has been timed. */
export interface TimeLeft {
  lowMs: number;
  highMs: number;
}

/**
 * What an estimate that may fall at once but grows only by the work added shows: the new raw estimate, or
 * the last one shown plus the time of the work added since, whichever is less. A step that waits on
 * another, or a machine that slows down, so holds the figure shown rather than raising it.
 */
export const steadyMs = (lastShownMs: number | undefined, rawMs: number, addedMs: number): number =>
  lastShownMs === undefined ? rawMs : Math.min(rawMs, lastShownMs + Math.max(0, addedMs));

/**
 * The whole precompute of a first start (the first answers' stage, then every state's), before anything of
 * it has been timed, on two simulate threads: from 108 s (`npm run bench -- first-answer` of 2026-11-27,
 * docs/performance.md: 113 s from `npm start` to the precompute served, less the 4.6 s before the server
 * answered) to 12 min 48 s (issue 38's first start at load average 10: 12 min 53 s, less the same). The
 * simulate step, most of the time, runs a thread each, so `precomputePrior` scales it by the threads.
 */
const PRIOR_ON_TWO_THREADS: TimeLeft = { lowMs: 108_000, highMs: 768_000 };

/** The range the precompute is given before it has been timed, for `threads` simulate threads. */
export const precomputePrior = (threads: number): TimeLeft => ({
  lowMs: (PRIOR_ON_TWO_THREADS.lowMs * 2) / threads,
  highMs: (PRIOR_ON_TWO_THREADS.highMs * 2) / threads,
});

/** A line's identity on a board: its label and when it started (a later run repeats labels). */
const identity = (line: Readonly<ProgressLine>) => `${line.label}@${line.startedAtMs}`;

/**
 * Each running line's own time left as a terminal board shows it: at the line's rate so far, but never
 * growing by more than the work its total gained since the last reading (`steadyMs`).
 */
export class LineTimesLeft {
  private readonly seen = new Map<string, { shownMs: number | undefined; total: number | undefined }>();

  read(line: Readonly<ProgressLine>, nowMs: number): number | undefined {
    const rawMs = timeLeftMs(line, nowMs);
    const last = this.seen.get(identity(line));
    const asBeforeMs = timeLeftMs({ ...line, total: last?.total }, nowMs) ?? 0;
    const shownMs = rawMs === undefined ? undefined : steadyMs(last?.shownMs, rawMs, rawMs - asBeforeMs);
    this.seen.set(identity(line), { shownMs, total: line.total });
    return shownMs;
  }
}

/**
 * The time a precompute still needs, as the 503s, /healthz and the terminal show it: the plan's estimate
 * (`runTimeLeftMs`) once a plan exists and the run has shown how much work it has, else a range that the
 * prior bounds; never growing from one reading to the next by more than the work the run found in between
 * (`steadyMs`), e.g. the 13,432 clusters of every state against the plan's 332.
 */
export class PrecomputeTimeLeft {
  private shown: TimeLeft | undefined;
  private totalsSeen = new Map<string, number | undefined>();

  /** `prior`: the whole precompute's range before it is timed; `startedAtMs`: when it started. */
  constructor(
    private readonly prior: TimeLeft,
    private readonly startedAtMs: number,
  ) {}

  /** The time left now, given the plan (null before a stage has been timed) and this stage's lines. */
  read(plan: Lines | null, run: Lines, nowMs: number): TimeLeft {
    const estimate = (lines: Lines) => runTimeLeftMs(plan ?? [], lines, nowMs);
    const rawMs = estimate(run);
    const asBefore = run.map((line) => ({ ...line, total: this.totalsSeen.get(identity(line)) }));
    // The work added: the same estimate over the totals known at the last reading (none for a new line).
    const addedMs = rawMs - estimate(asBefore);
    const elapsedMs = nowMs - this.startedAtMs;
    const raw =
      plan !== null && knowsItsWork(plan, run)
        ? { lowMs: rawMs, highMs: rawMs }
        : {
            lowMs: Math.max(rawMs, this.prior.lowMs - elapsedMs),
            highMs: Math.max(rawMs, this.prior.highMs - elapsedMs),
          };
    const lowMs = steadyMs(this.shown?.lowMs, raw.lowMs, addedMs);
    const highMs = steadyMs(this.shown?.highMs, raw.highMs, addedMs);
    this.shown = { lowMs, highMs: Math.max(lowMs, highMs) };
    this.totalsSeen = new Map(run.map((line) => [identity(line), line.total]));
    return this.shown;
  }
}

/**
 * Whether the run has shown how much work it has of the unit most of the plan's time went to (clusters:
 * simulating and gathering them), or has gone past every step of it (a run with no cluster to compute).
 */
function knowsItsWork(plan: Lines, run: Lines): boolean {
  const planEnd = Math.max(0, ...plan.map((line) => line.endedAtMs ?? 0));
  const planned = keyed(plan);
  const timeByUnit = new Map<string, number>();
  for (const { line } of planned.filter(({ line }) => line.total !== undefined))
    timeByUnit.set(line.unit, (timeByUnit.get(line.unit) ?? 0) + ownMs(line, plan, planEnd));
  const [unit] = [...timeByUnit].reduce((most, entry) => (entry[1] > most[1] ? entry : most), ['', -1]);
  if (workScales(plan, run).has(unit)) return true;
  const lastOfUnit = planned.findLastIndex(({ line }) => line.unit === unit);
  const started = new Set(keyed(run).map(({ key }) => key));
  return planned.slice(lastOfUnit + 1).some(({ key }) => started.has(key));
}
