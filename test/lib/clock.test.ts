import { describe, expect, it } from 'vitest';
import { asOfDate } from '../../lib/clock.ts';

describe('asOfDate', () => {
  it('is the date in New York, not in UTC, on either side of daylight saving time', () => {
    // 03:30 UTC on 28 November is 22:30 EST on the 27th; 04:30 UTC on 1 July is 00:30 EDT that day.
    expect(asOfDate(undefined, new Date('2026-11-28T03:30:00Z'))).toBe('2026-11-27');
    expect(asOfDate(undefined, new Date('2026-11-28T05:00:00Z'))).toBe('2026-11-28');
    expect(asOfDate(undefined, new Date('2026-07-01T03:59:59Z'))).toBe('2026-06-30');
    expect(asOfDate(undefined, new Date('2026-07-01T04:30:00Z'))).toBe('2026-07-01');
  });

  it('is AS_OF_DATE when one is configured, whatever the clock says', () => {
    expect(asOfDate('2025-01-15', new Date('2026-11-28T03:30:00Z'))).toBe('2025-01-15');
  });
});
