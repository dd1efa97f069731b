import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createProgress, formatDuration } from '../../lib/progress.ts';

/** A clock the test moves by hand. */
function manualClock() {
  let at = 10_000;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

/** A pino logger whose lines land in an array, without time or host so they compare exactly. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, logger: pino({ base: undefined, timestamp: false }, sink) };
}

/** A reporter writing to a captured stream (terminal or not) and logger, on a clock the test moves. */
function progressOn(stream: { isTTY: boolean }) {
  const clock = manualClock();
  const written: string[] = [];
  const { logger, lines } = capturedLogger();
  const progress = createProgress({
    logger,
    now: clock.now,
    stream: { isTTY: stream.isTTY, write: (chunk: string) => written.push(chunk) },
  });
  return { clock, written, lines, progress };
}

describe('progress on a terminal', () => {
  it('redraws one line with count, percentage, rate and time left, then ends it with the totals', () => {
    const { clock, written, lines, progress } = progressOn({ isTTY: true });

    const task = progress.start('publish incentives', { total: 10_000, unit: 'records' });
    clock.advance(50);
    task.tick(500); // within 100 ms of the last draw: not redrawn
    clock.advance(950);
    task.tick(1500);
    clock.advance(1000);
    task.tick(2000);
    clock.advance(1000);
    task.tick(6000);
    task.done();
    task.done();

    expect(written).toEqual([
      '\rpublish incentives: 0/10,000 records (0.0%), –/s\x1b[K',
      '\rpublish incentives: 2,000/10,000 records (20.0%), 2,000/s, 4.0s left\x1b[K',
      '\rpublish incentives: 4,000/10,000 records (40.0%), 2,000/s, 3.0s left\x1b[K',
      '\rpublish incentives: 10,000/10,000 records (100.0%), 3,333/s, 0ms left\x1b[K',
      '\rpublish incentives: 10,000 records in 3.0s (3,333/s)\x1b[K\n',
    ]);
    expect(lines).toEqual([]);
  });

  it('shows count and rate only when the total is unknown', () => {
    const { clock, written, progress } = progressOn({ isTTY: true });

    const task = progress.start('parse incentives', { unit: 'files' });
    clock.advance(2000);
    task.tick(30);
    task.done();

    expect(written.slice(1)).toEqual([
      '\rparse incentives: 30 files, 15/s\x1b[K',
      '\rparse incentives: 30 files in 2.0s (15/s)\x1b[K\n',
    ]);
  });
});

describe('progress in logs (not a terminal)', () => {
  it('logs at most every 2 s, then a final line with count, rate and duration', () => {
    const { clock, written, lines, progress } = progressOn({ isTTY: false });

    const task = progress.start('publish incentives', { total: 8000, unit: 'records' });
    for (let i = 0; i < 4; i++) {
      clock.advance(1000);
      task.tick(1000);
    }
    clock.advance(500);
    task.tick(4000);
    task.done();

    expect(written).toEqual([]);
    expect(lines).toEqual([
      {
        level: 30,
        step: 'publish incentives',
        count: 2000,
        unit: 'records',
        total: 8000,
        percent: 25,
        leftMs: 6000,
        ratePerSec: 1000,
        elapsedMs: 2000,
        msg: 'publish incentives: 2,000/8,000 records (25.0%), 1,000/s, 6.0s left',
      },
      {
        level: 30,
        step: 'publish incentives',
        count: 4000,
        unit: 'records',
        total: 8000,
        percent: 50,
        leftMs: 4000,
        ratePerSec: 1000,
        elapsedMs: 4000,
        msg: 'publish incentives: 4,000/8,000 records (50.0%), 1,000/s, 4.0s left',
      },
      {
        level: 30,
        step: 'publish incentives',
        count: 8000,
        unit: 'records',
        durationMs: 4500,
        ratePerSec: 1777.8,
        msg: 'publish incentives: done, 8,000 records in 4.5s (1,778/s)',
      },
    ]);
  });

  it('logs only the final line for a step shorter than the interval', () => {
    const clock = manualClock();
    const { logger, lines } = capturedLogger();
    const progress = createProgress({ logger, now: clock.now, stream: { write: () => true } });

    const task = progress.start('parse incentives', { unit: 'records' });
    clock.advance(250);
    task.tick(100);
    task.done();

    expect(lines.map((line) => line.msg)).toEqual(['parse incentives: done, 100 records in 250ms (400/s)']);
  });
});

describe('durations', () => {
  it('are written for people', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(12_345)).toBe('12.3s');
    expect(formatDuration(245_000)).toBe('4m05s');
    expect(formatDuration(3_725_000)).toBe('1h02m');
  });
});
