import { describe, expect, it } from 'vitest';
import {
  countyFuelShares,
  housingTypeTilt,
  propaneShareOfOther,
  sharesOfHousingType,
  stateFuelShares,
} from '../../../model/parameters/heating-fuel.ts';

const closeTo = (shares: Record<string, number>, digits = 9) =>
  Object.fromEntries(Object.entries(shares).map(([fuel, v]) => [fuel, expect.closeTo(v, digits)]));

describe('housingTypeTilt', () => {
  it("compares a type's fuel mix with all homes' (RECS 2020 HC6.1): apartments burn less gas and more electricity", () => {
    // Single-family and mobile: 26.32 / 50.81 / 4.09 / 5.02 million units; apartments: 16.26 / 11.90 / 0.85 / 0.16.
    expect(housingTypeTilt('single_family')).toEqual(
      closeTo({ electricity: 0.827208, natural_gas: 1.084294, fuel_oil: 1.107978, propane: 1.296906 }, 6),
    );
    expect(housingTypeTilt('multi_family')).toEqual(
      closeTo({ electricity: 1.510852, natural_gas: 0.750788, fuel_oil: 0.680768, propane: 0.122207 }, 6),
    );
  });
});

describe('county heating-fuel shares', () => {
  // A Massachusetts county: 50 % gas, 30 % electricity, 15 % oil, 5 % everything else (propane, wood, none).
  const county = { natural_gas: 0.5, electricity: 0.3, fuel_oil: 0.15, other: 0.05 };

  it("takes propane out of ACS's 'other' by the state's propane share among the four fuels", () => {
    // MA's table: propane 0.04 of 0.98 → p = 0.0408; P = p × 0.95 / (1 − p) = 0.0404 of 0.05 other.
    expect(propaneShareOfOther('MA', county)).toBeCloseTo(0.808511, 6);
    // A state whose 'other' is all propane and more gives at most all of it.
    expect(propaneShareOfOther('MA', { ...county, other: 0.01 })).toBe(1);
    expect(propaneShareOfOther('MA', { ...county, other: 0 })).toBe(0);
    expect(propaneShareOfOther('PR', county)).toBe(0);
  });

  it('normalises over the four fuels, then tilts by housing type', () => {
    const all = countyFuelShares(county, propaneShareOfOther('MA', county));
    expect(all).toEqual(
      closeTo({ electricity: 0.3029001, natural_gas: 0.5048335, fuel_oil: 0.1514501, propane: 0.0408163 }, 6),
    );
    expect(sharesOfHousingType(all, 'single_family')).toEqual(
      closeTo({ electricity: 0.245965, natural_gas: 0.537346, fuel_oil: 0.164725, propane: 0.051964 }, 6),
    );
    expect(sharesOfHousingType(all, 'multi_family')).toEqual(
      closeTo({ electricity: 0.4844, natural_gas: 0.401188, fuel_oil: 0.109132, propane: 0.00528 }, 6),
    );
  });

  it("falls back to the sampler's state table, normalised, and knows no state outside it", () => {
    // MA: 0.19 / 0.53 / 0.22 / 0.04 of 0.98.
    expect(stateFuelShares('MA')).toEqual(
      closeTo({
        electricity: 0.19 / 0.98,
        natural_gas: 0.53 / 0.98,
        fuel_oil: 0.22 / 0.98,
        propane: 0.04 / 0.98,
      }),
    );
    expect(stateFuelShares('PR')).toBeUndefined();
  });
});
