import { describe, expect, it } from 'vitest';
import type { ProgressLine } from '../../lib/progress-board.ts';
import { runTimeLeftMs } from '../../lib/run-estimate.ts';

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
