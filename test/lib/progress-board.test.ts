import { describe, expect, it } from 'vitest';
import { ProgressBoard, renderProgressLines } from '../../lib/progress-board.ts';

/** A clock the test moves by hand. */
function manualClock() {
  let at = 0;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

describe('ProgressBoard', () => {
  it('keeps a line per step in start order, counts ticks and marks the end', () => {
    const clock = manualClock();
    const board = new ProgressBoard({ now: clock.now });
    const build = board.start('build tables', { total: 30, unit: 'tables' });
    clock.advance(1000);
    const simulate = board.start('simulate clusters', { total: 13_764, unit: 'clusters' });
    simulate.tick(3441);
    expect(board.running()).toEqual({
      label: 'simulate clusters',
      unit: 'clusters',
      count: 3441,
      total: 13_764,
      startedAtMs: 1000,
      endedAtMs: undefined,
      running: 1,
    });
    clock.advance(500);
    simulate.done();
    simulate.tick(5); // after done: ignored
    expect(board.running()?.label).toBe('build tables');
    build.tick();
    build.done();
    expect(board.running()).toBeNull();
    expect(board.snapshot().map((l) => [l.label, l.count, l.endedAtMs])).toEqual([
      ['build tables', 1, 1500],
      ['simulate clusters', 3441, 1500],
    ]);
  });

  it('adds consecutive steps that share a line, and starts a new line once another step came between', () => {
    const board = new ProgressBoard({ lineFor: (step) => step.replace(/^read .*/, 'read sources') });
    for (const [source, files] of [
      ['incentives', 25],
      ['zip-counties', 1],
    ] as const) {
      const task = board.start(`read ${source}`, { unit: 'files' });
      task.tick(files);
      task.done();
    }
    board.start('stage records', { unit: 'records' }).done();
    board.start('read power-plants', { unit: 'files' }).tick(1);
    expect(board.snapshot().map((l) => [l.label, l.count, l.endedAtMs === undefined])).toEqual([
      ['read sources', 26, false],
      ['stage records', 0, false],
      ['read sources', 1, true],
    ]);
  });

  it('tells subscribers of every change until they unsubscribe', () => {
    const board = new ProgressBoard();
    let changes = 0;
    const unsubscribe = board.subscribe(() => changes++);
    const task = board.start('stage records', { unit: 'records' });
    task.tick(10);
    unsubscribe();
    task.done();
    expect(changes).toBe(2);
  });
});

describe('renderProgressLines', () => {
  it('draws a bar, the counts, the percentage and the time left of a running step, and the duration of a done one', () => {
    const lines = renderProgressLines(
      [
        {
          label: 'stage records',
          unit: 'records',
          count: 54_238,
          total: undefined,
          startedAtMs: 0,
          endedAtMs: 1200,
          running: 0,
        },
        {
          label: 'simulate clusters',
          unit: 'clusters',
          count: 3441,
          total: 13_764,
          startedAtMs: 2000,
          endedAtMs: undefined,
          running: 1,
        },
        {
          label: 'read sources',
          unit: 'files',
          count: 3,
          total: undefined,
          startedAtMs: 31_000,
          endedAtMs: undefined,
          running: 1,
        },
      ],
      32_000,
    );
    expect(lines).toEqual([
      '✓ stage records      [████████████████████████]  54,238 records  done in 1.2s',
      '› simulate clusters  [██████░░░░░░░░░░░░░░░░░░]  3,441/13,764 clusters  25%  1m30s left',
      '› read sources       [░░░░░░░░░░░░░░░░░░░░░░░░]  3 files  1.0s',
    ]);
  });

  it('says nothing of time left before anything is counted, and draws no lines for an empty board', () => {
    const line = {
      label: 'write snapshot',
      unit: 'tables',
      count: 0,
      total: 30,
      startedAtMs: 0,
      endedAtMs: undefined,
      running: 1,
    };
    expect(renderProgressLines([line], 500)).toEqual([
      '› write snapshot  [░░░░░░░░░░░░░░░░░░░░░░░░]  0/30 tables  0%',
    ]);
    expect(renderProgressLines([], 0)).toEqual([]);
  });
});
