import { describe, expect, it } from 'vitest';
import { median, rSquared, scoreAccuracy } from '../../../model/surrogate/accuracy.ts';

describe('scoreAccuracy', () => {
  // Two homes × (baseline, heat pump); outputs electricity and natural gas, kWh.
  const scored = {
    rows: 4,
    outputs: ['electricity', 'natural_gas'],
    upgrades: ['baseline', 'heat_pump', 'never_applied'],
    home: Int32Array.of(0, 0, 1, 1),
    upgrade: Int32Array.of(0, 1, 0, 1),
    simulated: Float32Array.of(1000, 3000, 2000, 0, 500, 1500, 1500, 0),
    predicted: Float32Array.of(1000, 3200, 2100, 0, 500, 1500, 1400, 0),
  };

  it('scores totals, savings per upgrade and R² per fuel exactly', () => {
    const result = scoreAccuracy(scored);
    // Total APEs: 200/4000 = 5 %, 100/2000 = 5 %, 0 %, 100/1500 = 6.67 % → median 5 %.
    expect(result.median_ape_total).toBeCloseTo(5, 10);
    // Savings: home 0 true 2000 vs 2100 (5 %); home 1 true 500 vs 600 (20 %) → median 12.5 %.
    expect(result.median_ape_savings_by_upgrade).toEqual({ heat_pump: 12.5 });
    expect(result.r2_by_fuel.electricity).toBeCloseTo(1 - 20_000 / 1_250_000, 10);
    expect(result.r2_by_fuel.natural_gas).toBeCloseTo(1 - 40_000 / 6_187_500, 10);
    expect(result).toMatchObject({ n_homes: 2, n_rows: 4 });
  });

  it('leaves out upgrades whose true savings are zero, which have no percentage error', () => {
    const flat = { ...scored, simulated: Float32Array.of(1000, 0, 1000, 0, 500, 1500, 1500, 0) };
    expect(flat.simulated[0]! - flat.simulated[2]!).toBe(0);
    expect(scoreAccuracy(flat).median_ape_savings_by_upgrade).toEqual({ heat_pump: 20 });
  });
});

describe('median and rSquared', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow('median of no values');
  });

  it('is 1 for a perfect fit, 0 for predicting the mean, and undefined without variance', () => {
    expect(rSquared([1, 2, 3], [1, 2, 3])).toBe(1);
    expect(rSquared([1, 2, 3], [2, 2, 2])).toBe(0);
    expect(rSquared([5, 5], [4, 6])).toBeNull();
  });
});
