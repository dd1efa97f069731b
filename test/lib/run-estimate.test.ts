import { describe, expect, it } from 'vitest';
import type { ProgressLine } from '../../lib/progress-board.ts';
import { LineTimesLeft, PrecomputeTimeLeft, precomputePrior, runTimeLeftMs } from '../../lib/run-estimate.ts';

const line = (
  label: string,
  unit: string,
  startedAtMs: number,
  endedAtMs: number | undefined,
  total?: number,
  count = total ?? 0,
): ProgressLine => ({
  label,
  unit,
  count,
  total,
  startedAtMs,
  endedAtMs,
  running: endedAtMs === undefined ? 1 : 0,
});

/** A first start's small stage (the sample's states' health rollup), as its board timed it. */
const smallStage = [
  line('read sources', 'files', 0, 400),
  line('stage records', 'records', 400, 1100),
  line('build tables', 'tables', 1100, 6000, 32),
  line('simulate clusters', 'clusters', 1500, 3600, 332),
  line('gather statistics', 'clusters', 4000, 4700, 268),
  line('write snapshot', 'tables', 6000, 6200, 32),
  line('load snapshot', 'snapshots', 6200, 7200, 1),
];

describe('runTimeLeftMs', () => {
  it('adds the running step’s own rate to the steps still to come, scaled by this run’s work of their unit', () => {
    const wholeStage = [
      line('read sources', 'files', 0, 300),
      line('stage records', 'records', 300, 1000),
      line('build tables', 'tables', 1000, undefined, 10, 6),
      line('simulate clusters', 'clusters', 1500, undefined, 13_432, 3358),
    ];
    // build tables: its own 2,100 ms of the plan × 10/32 tables, less the 500 ms of its own so far;
    // simulate: 10,074 clusters to go at 3,358 per 15 s; gather: 700 ms × 13,432/332 clusters; write:
    // 200 ms × 10/32; load: 1,000 ms (no run has loaded more than one snapshot).
    expect(runTimeLeftMs(smallStage, wholeStage, 16_500)).toBeCloseTo(
      2100 * (10 / 32) - 500 + 45_000 + 700 * (13_432 / 332) + 200 * (10 / 32) + 1000,
      6,
    );
  });

  it('counts nothing for steps done and a plan step’s time once when steps nest two deep', () => {
    const plan = [
      line('build tables', 'tables', 0, 10_000, 4),
      line('simulate clusters', 'clusters', 1000, 9000, 100),
      line('start workers', 'threads', 2000, 3000, 2),
      line('load snapshot', 'snapshots', 10_000, 11_000, 1),
    ];
    const run = [
      line('build tables', 'tables', 0, 20_000, 4),
      line('simulate clusters', 'clusters', 1000, 19_000, 100),
      line('start workers', 'threads', 2000, 3000, 2),
      line('load snapshot', 'snapshots', 20_000, undefined, 1, 0),
    ];
    // Only the snapshot load is left; nothing is counted yet, so its plan time less what it ran.
    expect(runTimeLeftMs(plan, run, 20_400)).toBe(600);
    // Before the run started anything: build tables' own 2,000 ms (10,000 less simulate's 8,000),
    // simulate's own 7,000 (less the workers' 1,000), the workers' 1,000 and the load's 1,000.
    expect(runTimeLeftMs(plan, [], 0)).toBe(11_000);
  });

  it('adds a running step the plan lacks by its own rate, and never goes below zero for a slow step', () => {
    const run = [
      line('read sources', 'files', 0, 300),
      line('stage records', 'records', 300, 1000),
      line('build tables', 'tables', 1000, 9000, 32),
      line('simulate clusters', 'clusters', 1500, 3600, 332),
      line('gather statistics', 'clusters', 4000, 4700, 268),
      line('write snapshot', 'tables', 9000, 9500, 32),
      line('load snapshot', 'snapshots', 9500, 11_000, 1),
      line('compact log', 'segments', 11_000, undefined, 10, 5),
    ];
    // The load ran 1,500 ms against the plan's 1,000 and is done: the 5 segments left at 1 per 200 ms remain.
    expect(runTimeLeftMs(smallStage, run, 12_000)).toBe(1000);
  });
});

/** The whole stage of a first start (every state's health), its first steps as they are at `nowMs`. */
const wholeStageAt = (simulated: number | null) => [
  line('read sources', 'files', 20_000, 20_300),
  line('stage records', 'records', 20_300, 21_000),
  line('build tables', 'tables', 21_000, undefined, 10, 6),
  ...(simulated === null
    ? []
    : [line('simulate clusters', 'clusters', 21_500, undefined, 13_432, simulated)]),
];

describe('PrecomputeTimeLeft', () => {
  it('gives the prior range from the first reading, less the time gone, while no stage has been timed', () => {
    const timeLeft = new PrecomputeTimeLeft({ lowMs: 108_000, highMs: 768_000 }, 1000);
    expect(timeLeft.read(null, [], 1000)).toEqual({ lowMs: 108_000, highMs: 768_000 });
    // The first stage's simulate step, 17 of 332 clusters in 2 s: 37 s at its rate, less than the range.
    const firstStage = [line('simulate clusters', 'clusters', 4000, undefined, 332, 17)];
    expect(timeLeft.read(null, firstStage, 6000)).toEqual({ lowMs: 103_000, highMs: 763_000 });
  });

  it('keeps the range until the run shows its work, then gives the plan’s estimate, grown by the work found', () => {
    const timeLeft = new PrecomputeTimeLeft({ lowMs: 20_000, highMs: 60_000 }, 0);
    // The whole stage has begun, but how many clusters it has is not known yet: the range less 20.5 s, and
    // at least the plan's estimate with the plan's clusters.
    const unscaled = runTimeLeftMs(smallStage, wholeStageAt(null), 20_500);
    expect(timeLeft.read(smallStage, wholeStageAt(null), 20_500)).toEqual({
      lowMs: unscaled,
      highMs: 39_500,
    });
    // 13,432 clusters (40 times the plan's), 3,358 done in 15 s: the plan's estimate, above what was shown
    // by the clusters found.
    const estimate = runTimeLeftMs(smallStage, wholeStageAt(3358), 36_500);
    expect(estimate).toBeGreaterThan(39_500);
    expect(timeLeft.read(smallStage, wholeStageAt(3358), 36_500)).toEqual({
      lowMs: estimate,
      highMs: estimate,
    });
  });

  it('holds the figure shown while a step stalls, and lets it fall as work is done', () => {
    const timeLeft = new PrecomputeTimeLeft(precomputePrior(2), 0);
    const shown = timeLeft.read(smallStage, wholeStageAt(3358), 36_500);
    // 20 s later, no cluster more: at its rate the step would need longer, but no work was added.
    expect(runTimeLeftMs(smallStage, wholeStageAt(3358), 56_500)).toBeGreaterThan(shown.lowMs);
    expect(timeLeft.read(smallStage, wholeStageAt(3358), 56_500)).toEqual(shown);
    // Then it catches up: what its rate now says, below the figure held.
    const later = runTimeLeftMs(smallStage, wholeStageAt(9000), 76_500);
    expect(later).toBeLessThan(shown.lowMs);
    expect(timeLeft.read(smallStage, wholeStageAt(9000), 76_500)).toEqual({ lowMs: later, highMs: later });
  });

  it('scales the prior by the simulate threads it was measured with (two)', () => {
    expect(precomputePrior(2)).toEqual({ lowMs: 108_000, highMs: 768_000 });
    expect(precomputePrior(8)).toEqual({ lowMs: 27_000, highMs: 192_000 });
  });
});

describe('LineTimesLeft', () => {
  it('holds a line’s time left while it waits, and grows it by exactly the work added to its total', () => {
    const times = new LineTimesLeft();
    // 100 of 400 clusters in 10 s: 30 s left.
    expect(times.read(line('gather statistics', 'clusters', 0, undefined, 400, 100), 10_000)).toBe(30_000);
    // Waiting on another step for 50 s: its rate says 3 min, but nothing was added.
    expect(times.read(line('gather statistics', 'clusters', 0, undefined, 400, 100), 60_000)).toBe(30_000);
    // 100 more clusters join its total: at its rate now (1 per 600 ms) they take 60 s more.
    expect(times.read(line('gather statistics', 'clusters', 0, undefined, 500, 100), 60_000)).toBe(90_000);
    // A line it has not seen (another run's, same label) starts afresh.
    expect(times.read(line('gather statistics', 'clusters', 70_000, undefined, 400, 100), 80_000)).toBe(
      30_000,
    );
  });

  it('gives nothing for a line with no total or nothing counted yet', () => {
    const times = new LineTimesLeft();
    expect(times.read(line('stage records', 'records', 0, undefined, undefined, 5000), 1000)).toBeUndefined();
    expect(times.read(line('simulate clusters', 'clusters', 0, undefined, 332, 0), 1000)).toBeUndefined();
  });
});
