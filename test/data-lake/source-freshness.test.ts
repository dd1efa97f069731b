import { describe, expect, it } from 'vitest';
import { afterReads, staleSources } from '../../data-lake/source-freshness.ts';

const JAN = new Date('2026-01-10T06:00:00.000Z');
const MAY = new Date('2026-05-10T06:00:00.000Z');

describe('afterReads', () => {
  it('keeps when the content changed, moves when it was read, and records a failed read after it', () => {
    const first = afterReads({}, [{ source: 'incentives', contentHash: 'a1' }], JAN);
    expect(first).toEqual({
      incentives: { contentHash: 'a1', changedAt: JAN.toISOString(), readAt: JAN.toISOString() },
    });
    const same = afterReads(first, [{ source: 'incentives', contentHash: 'a1' }], MAY);
    expect(same.incentives).toEqual({
      contentHash: 'a1',
      changedAt: JAN.toISOString(),
      readAt: MAY.toISOString(),
    });
    const failed = afterReads(
      same,
      [{ source: 'incentives', failure: 'HTTP 503' }],
      new Date('2026-05-11T00:00:00Z'),
    );
    expect(failed.incentives).toMatchObject({
      readAt: MAY.toISOString(),
      failedAt: '2026-05-11T00:00:00.000Z',
      failure: 'HTTP 503',
    });
    const changed = afterReads(
      failed,
      [{ source: 'incentives', contentHash: 'b2' }],
      new Date('2026-05-12T00:00:00Z'),
    );
    expect(changed.incentives).toEqual({
      contentHash: 'b2',
      changedAt: '2026-05-12T00:00:00.000Z',
      readAt: '2026-05-12T00:00:00.000Z',
    });
  });

  it('records nothing for a source that has never been read successfully', () => {
    expect(afterReads({}, [{ source: 'incentives', failure: 'no such file' }], JAN)).toEqual({});
  });
});

describe('staleSources', () => {
  const known = afterReads(
    {},
    [
      { source: 'incentives', contentHash: 'a1' },
      { source: 'emission-factors', contentHash: 'e1', staleAfterDays: null },
      { source: 'energy-rates', contentHash: 'r1', staleAfterDays: 400 },
    ],
    JAN,
  );

  it('reports a feed unchanged for longer than the default, not a file shipped with the project', () => {
    const refreshed = afterReads(
      known,
      [
        { source: 'incentives', contentHash: 'a1' },
        { source: 'emission-factors', contentHash: 'e1', staleAfterDays: null },
        { source: 'energy-rates', contentHash: 'r1', staleAfterDays: 400 },
      ],
      MAY,
    );
    expect(staleSources(refreshed, 90, MAY)).toEqual([
      { source: 'incentives', reason: 'unchanged', since: JAN.toISOString(), days: 120 },
    ]);
  });

  it('reports every source not read successfully for longer than its limit', () => {
    expect(staleSources(known, 90, MAY)).toEqual([
      { source: 'incentives', reason: 'unchanged', since: JAN.toISOString(), days: 120 },
      { source: 'incentives', reason: 'unread', since: JAN.toISOString(), days: 120 },
      { source: 'emission-factors', reason: 'unread', since: JAN.toISOString(), days: 120 },
    ]);
    expect(staleSources(known, 90, new Date('2026-02-01T00:00:00Z'))).toEqual([]);
  });
});
