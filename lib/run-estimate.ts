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
  // Per unit, this run's work against the plan's: the newest started line of the unit that both know a total of.
  const scale = new Map<string, number>();
  for (const { key, line } of keyed(run)) {
    const before = planTotals.get(key);
    if (line.total !== undefined && before !== undefined && before > 0)
      scale.set(line.unit, line.total / before);
  }
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
