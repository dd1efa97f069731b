import { describe, expect, it } from 'vitest';
import type { LowIncomeThresholdRecord, PovertyLevelRecord } from '../../../../schemas/incentives/records.ts';
import {
  isLowIncome,
  povertyLevel,
  type IncomeLocation,
} from '../../../../serve/incentives/eligibility/low-income.ts';

// 2025 HHS poverty guidelines (aspe.hhs.gov): 48 states and DC, and Alaska.
const povertyLevels = new Map<string, PovertyLevelRecord>([
  [
    'other',
    {
      table: 'other',
      levels_by_hhsize: [0, 15650, 21150, 26650, 32150, 37650, 43150, 48650, 54150],
      per_additional: 5500,
    },
  ],
  [
    'AK',
    {
      table: 'AK',
      levels_by_hhsize: [0, 19550, 26430, 33310, 40190, 47070, 53950, 60830, 67710],
      per_additional: 6880,
    },
  ],
]);
const providence: IncomeLocation = { state: 'RI', countyFips: ['44007'], ami80: 64750, ami150: 121400 };
const source = { source_url: 'https://example.org/limits' };

describe('isLowIncome', () => {
  it('hhsize: inclusive limit for the household size; a size without a limit never qualifies', () => {
    const t: LowIncomeThresholdRecord = {
      ...source,
      id: 'ri-rie',
      type: 'hhsize',
      thresholds: { '1': 32265, '2': 42193 },
    };
    expect(isLowIncome(t, { income: 42193, size: 2 }, providence, povertyLevels)).toBe(true);
    expect(isLowIncome(t, { income: 42194, size: 2 }, providence, povertyLevels)).toBe(false);
    expect(isLowIncome(t, { income: 1000, size: 3 }, providence, povertyLevels)).toBe(false);
  });

  it('county-hhsize: the strictest county limit applies, falling back to "other"', () => {
    const t: LowIncomeThresholdRecord = {
      ...source,
      id: 'vt-default',
      type: 'county-hhsize',
      thresholds: { '50001': { '1': 61050 }, '50007': { '1': 66600 }, other: { '1': 57300 } },
    };
    const addison = { ...providence, state: 'VT', countyFips: ['50001'] };
    const twoCounties = { ...addison, countyFips: ['50001', '50007'] };
    const bennington = { ...addison, countyFips: ['50003'] };
    expect(isLowIncome(t, { income: 61050, size: 1 }, addison, povertyLevels)).toBe(true);
    expect(isLowIncome(t, { income: 61050, size: 1 }, twoCounties, povertyLevels)).toBe(true);
    expect(isLowIncome(t, { income: 61051, size: 1 }, twoCounties, povertyLevels)).toBe(false);
    expect(isLowIncome(t, { income: 57300, size: 1 }, bennington, povertyLevels)).toBe(true);
    expect(isLowIncome(t, { income: 60000, size: 1 }, bennington, povertyLevels)).toBe(false);
  });

  it('county-hhsize: no county, or a county with no limit and no fallback, never qualifies', () => {
    const t: LowIncomeThresholdRecord = {
      ...source,
      id: 'co-boulder',
      type: 'county-hhsize',
      thresholds: { '08013': { '1': 105500 } },
    };
    expect(isLowIncome(t, { income: 1, size: 1 }, { ...providence, countyFips: [] }, povertyLevels)).toBe(
      false,
    );
    expect(
      isLowIncome(
        t,
        { income: 1, size: 1 },
        { ...providence, countyFips: ['08013', '08059'] },
        povertyLevels,
      ),
    ).toBe(false);
  });

  it('filing-status: needs a filing status and an income inside its range', () => {
    const t: LowIncomeThresholdRecord = {
      ...source,
      id: 'vt-ev-moderate',
      type: 'filing-status',
      thresholds: { single: [60001, 100000], joint: [90001, 150000] },
    };
    expect(isLowIncome(t, { income: 60001, size: 1, taxFiling: 'single' }, providence, povertyLevels)).toBe(
      true,
    );
    expect(isLowIncome(t, { income: 60000, size: 1, taxFiling: 'single' }, providence, povertyLevels)).toBe(
      false,
    );
    expect(isLowIncome(t, { income: 70000, size: 1 }, providence, povertyLevels)).toBe(false);
    expect(isLowIncome(t, { income: 70000, size: 1, taxFiling: 'hoh' }, providence, povertyLevels)).toBe(
      false,
    );
  });

  it('ami-percentage: inclusive 80% or 150% of AMI; any other percentage never qualifies', () => {
    const at = (percentage: number): LowIncomeThresholdRecord => ({
      ...source,
      id: `ami-${percentage}`,
      type: 'ami-percentage',
      thresholds: { percentage },
    });
    expect(isLowIncome(at(80), { income: 64750, size: 4 }, providence, povertyLevels)).toBe(true);
    expect(isLowIncome(at(80), { income: 64751, size: 4 }, providence, povertyLevels)).toBe(false);
    expect(isLowIncome(at(150), { income: 121400, size: 4 }, providence, povertyLevels)).toBe(true);
    expect(isLowIncome(at(100), { income: 1, size: 4 }, providence, povertyLevels)).toBe(false);
  });

  it('fpl-percentage: a share of the poverty guideline (Alaska has its own), never in a territory', () => {
    const t: LowIncomeThresholdRecord = {
      ...source,
      id: 'nm-200fpl',
      type: 'fpl-percentage',
      thresholds: { percentage: 200 },
    };
    expect(isLowIncome(t, { income: 64300, size: 4 }, providence, povertyLevels)).toBe(true);
    expect(isLowIncome(t, { income: 64301, size: 4 }, providence, povertyLevels)).toBe(false);
    expect(isLowIncome(t, { income: 80380, size: 4 }, { ...providence, state: 'AK' }, povertyLevels)).toBe(
      true,
    );
    expect(isLowIncome(t, { income: 1, size: 1 }, { ...providence, state: 'PR' }, povertyLevels)).toBe(false);
  });
});

describe('povertyLevel', () => {
  it('adds the per-person amount above 8 people', () => {
    expect(povertyLevel(povertyLevels, 'RI', 8)).toBe(54150);
    expect(povertyLevel(povertyLevels, 'RI', 10)).toBe(65150);
  });
});
