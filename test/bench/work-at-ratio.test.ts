import { describe, expect, it } from 'vitest';
import { workAtRatio } from './work-at-ratio.ts';

describe('workAtRatio: the work per request at which a route serves a given share of the bare route', () => {
  // A bare route at 50,000 req/s spends 20 µs a request; half its throughput is 40 µs a request.
  const measured = [
    { workMicroseconds: 0, requestsPerSecond: 45_000 }, // 22.2 µs
    { workMicroseconds: 12, requestsPerSecond: 30_000 }, // 33.3 µs
    { workMicroseconds: 24, requestsPerSecond: 20_000 }, // 50 µs
  ];

  it('interpolates per-request time between the two amounts of work that bracket the target', () => {
    // 12 + (40 − 33.33) / (50 − 33.33) × 12
    expect(workAtRatio(50_000, measured, 0.5)).toBeCloseTo(16.8, 9);
  });

  it('gives the measured amount itself when a point sits on the target', () => {
    expect(workAtRatio(60_000, measured, 0.5)).toBeCloseTo(12, 9);
  });

  it('is null when every measured amount of work stays above the target', () => {
    expect(workAtRatio(50_000, measured.slice(0, 2), 0.5)).toBeNull();
  });

  it('is null when even no work falls below the target', () => {
    expect(workAtRatio(100_000, measured, 0.5)).toBeNull();
  });
});
