import { describe, expect, it } from 'vitest';
import { isExpired, lastDayOf } from '../../../../serve/incentives/eligibility/dates.ts';

describe('lastDayOf', () => {
  it.each([
    ['2025', '2025-12-31'],
    ['2024-02', '2024-02-29'],
    ['2025-02', '2025-02-28'],
    ['1900-02', '1900-02-28'],
    ['2000-02', '2000-02-29'],
    ['2025-04', '2025-04-30'],
    ['2025-12', '2025-12-31'],
    ['2025-09-30', '2025-09-30'],
    ['2025Q1', '2025-03-31'],
    ['2025Q2', '2025-06-30'],
    ['2025Q3', '2025-09-30'],
    ['2025Q4', '2025-12-31'],
    ['2025H1', '2025-06-30'],
    ['2025H2', '2025-12-31'],
  ])('%s ends on %s', (date, last) => {
    expect(lastDayOf(date)).toBe(last);
  });
});

describe('isExpired', () => {
  it('keeps an incentive valid through its last day and expires it the day after', () => {
    expect(isExpired('2025-01', '2025-01-31')).toBe(false);
    expect(isExpired('2025-01', '2025-02-01')).toBe(true);
    expect(isExpired('2024Q4', '2025-01-25')).toBe(true);
    expect(isExpired('2025H1', '2025-01-25')).toBe(false);
  });
});
