import { describe, expect, it } from 'vitest';
import { FixedWindowRateLimiter } from '../../../serve/http/rate-limiter.ts';

const T0 = Date.parse('2026-11-21T12:00:00.000Z');

describe('FixedWindowRateLimiter', () => {
  it('counts requests in a window opened by the first one, and starts over when it ends', () => {
    const limiter = new FixedWindowRateLimiter(2, 60_000);
    const seen = [T0, T0 + 10_000, T0 + 59_999].map((at) => ({ ...limiter.take('key_a', at) }));
    expect(seen).toEqual([
      { count: 1, resetsAt: T0 + 60_000 },
      { count: 2, resetsAt: T0 + 60_000 },
      { count: 3, resetsAt: T0 + 60_000 },
    ]);
    expect({ ...limiter.take('key_a', T0 + 60_000) }).toEqual({ count: 1, resetsAt: T0 + 120_000 });
  });

  it('keeps one window per client', () => {
    const limiter = new FixedWindowRateLimiter(1, 60_000);
    limiter.take('key_a', T0);
    limiter.take('key_a', T0 + 1);
    expect({ ...limiter.take('key_b', T0 + 2) }).toEqual({ count: 1, resetsAt: T0 + 60_002 });
    expect(limiter.take('key_a', T0 + 3).count).toBe(3);
  });

  it('counts the requests of one resource once a window (a file read in many ranges), others as usual', () => {
    const limiter = new FixedWindowRateLimiter(3, 60_000);
    const file = '/api/v1/lake/snapshots/s1/zips.parquet';
    const counts = [
      limiter.take('key_a', T0, file).count,
      limiter.take('key_a', T0 + 1, file).count,
      limiter.take('key_a', T0 + 2, file).count,
      limiter.take('key_a', T0 + 3).count,
      limiter.take('key_a', T0 + 4, '/api/v1/lake/snapshots/s1/geographies.parquet').count,
      limiter.take('key_a', T0 + 5, file).count,
    ];
    expect(counts).toEqual([1, 1, 1, 2, 3, 3]);
    // A new window counts the file again, once.
    expect(limiter.take('key_a', T0 + 60_000, file).count).toBe(1);
    expect(limiter.take('key_a', T0 + 60_001, file).count).toBe(1);
  });
});
