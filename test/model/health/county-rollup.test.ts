import { describe, expect, it } from 'vitest';
import {
  EMISSION_SECTORS,
  HEALTH_POLLUTANTS,
  HEALTH_UPGRADES,
  VALUE_OF_STATISTICAL_LIFE,
  type HealthBinDelta,
  type SqftBin,
} from '../../../schemas/health-data.ts';
import type { EmissionFactor } from '../../../schemas/rem-data.ts';
import {
  apportion,
  countyHealthCells,
  emissionFactorsFor,
  quantizeDeaths,
  singleFamilyHouseholds,
  type HealthFactors,
  type HeatingFuelCluster,
} from '../../../model/health/county-rollup.ts';
import { multiFamilyRatio } from '../../../model/health/multi-family.ts';

const emission = (
  fuel: EmissionFactor['fuel'],
  pollutant: EmissionFactor['pollutant'],
  value: number,
  region = 'US',
): EmissionFactor => ({
  region,
  fuel,
  pollutant,
  value,
  unit: fuel === 'electricity' ? 'kg/kWh' : fuel === 'natural_gas' ? 'kg/therm' : 'kg/gallon',
  basis: fuel === 'electricity' ? 'average' : 'combustion',
  year: 2023,
  publisher: 'spec',
});
// Round factors: PM2.5 and NOx on site, PM2.5 and SO2 at power plants; every other one is zero, so each
// figure is worked by hand.
const fossil = ['natural_gas', 'fuel_oil', 'propane'] as const;
const nonZero: Record<string, number> = {
  'natural_gas pm25': 0.0003,
  'natural_gas nox': 0.004,
  'electricity pm25': 0.00002,
  'electricity so2': 0.0001,
  'residential_combustion pm25': 0.1,
  'electricity_generation pm25': 0.05,
  'electricity_generation so2': 0.02,
};
const emissionFactors: EmissionFactor[] = [
  ...fossil.flatMap((fuel) => HEALTH_POLLUTANTS.map((p) => emission(fuel, p, nonZero[`${fuel} ${p}`] ?? 0))),
  // Electricity has only state rows: RI's.
  ...HEALTH_POLLUTANTS.map((p) => emission('electricity', p, nonZero[`electricity ${p}`] ?? 0, 'RI')),
];
// The county's and the state's deaths per tonne; the low estimate is 40 % of the central one.
const deathsPerTonne = Object.fromEntries(
  EMISSION_SECTORS.map((sector) => [
    sector,
    Object.fromEntries(
      HEALTH_POLLUTANTS.map((p) => {
        const central = nonZero[`${sector} ${p}`] ?? 0;
        return [p, { central, low: central * 0.4 }];
      }),
    ),
  ]),
) as HealthFactors['deathsPerTonne'];

/** The same change per home in every upgrade, by bin: [bin, homes, Δ kWh, Δ therms]. */
function cluster(
  heating_fuel: HeatingFuelCluster['heating_fuel'],
  bins: [SqftBin, number, number, number][],
): HeatingFuelCluster {
  return {
    heating_fuel,
    bins: HEALTH_UPGRADES.flatMap((upgrade) =>
      bins.map(([sqft_bin, homes, kwh, therms]): HealthBinDelta => ({
        upgrade,
        sqft_bin,
        sample_homes: homes,
        upgraded_homes: homes,
        delta_electricity_kwh: kwh,
        delta_natural_gas_therm: therms,
        delta_fuel_oil_gallon: 0,
        delta_propane_gallon: 0,
      })),
    ),
  };
}

const county = {
  county_fips: '44007',
  state: 'RI',
  name: 'Providence County',
  households: 1000,
  multi_unit_share: 0.2,
};
const versions = {
  code_version: 'c',
  model_version: 'm',
  factors_version: 'f',
  damage_factors_version: 'd',
};
// Single-family shares give gas three times electricity's weight once the unsupported oil and propane
// clusters drop out; in apartments, electricity and gas weigh the same.
const shares = {
  single_family: { electricity: 0.2, natural_gas: 0.6, fuel_oil: 0.1, propane: 0.1 },
  multi_family: { electricity: 0.45, natural_gas: 0.45, fuel_oil: 0.1, propane: 0 },
};
const emissions = emissionFactorsFor('RI', emissionFactors);
// The long-run grid: half of today's rates, PM2.5 and SO2 alike.
const longRun = Object.fromEntries(
  HEALTH_POLLUTANTS.map((p) => [p, emissions.factors.powerKgPerKwh[p] / 2]),
) as HealthFactors['powerKgPerKwh']['long_run'];
const factors: HealthFactors = {
  onsiteKgPerUnit: emissions.factors.onsiteKgPerUnit,
  powerKgPerKwh: { long_run: longRun, current_average: emissions.factors.powerKgPerKwh },
  deathsPerTonne,
};
const cells = countyHealthCells(
  county,
  [
    cluster('natural_gas', [
      ['0-1499', 30, 3000, -500],
      ['1500-2499', 10, 4000, -800],
    ]),
    cluster('electricity', [['0-1499', 40, -2000, 0]]),
  ],
  shares,
  factors,
  versions,
);
const cellOf = (
  fuel: string,
  bin: string,
  upgrade = HEALTH_UPGRADES[0],
  housing = 'single_family',
  grid = 'current_average',
) =>
  cells.find(
    (c) =>
      c.heating_fuel === fuel &&
      c.sqft_bin === bin &&
      c.upgrade === upgrade &&
      c.housing_type === housing &&
      c.grid_emissions === grid,
  )!;

describe('singleFamilyHouseholds', () => {
  it('takes the multi-unit share out of the occupied units and rounds', () => {
    expect(singleFamilyHouseholds({ households: 22_523, multi_unit_share: 0.089 })).toBe(20_518);
  });
});

describe('apportion', () => {
  it('splits a whole number by largest remainder, always summing to it', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(7, [0, 0.5, 0.5])).toEqual([0, 4, 3]);
    expect(apportion(5, [0.2, 0, 0.8])).toEqual([1, 0, 4]);
    expect(apportion(0, [1, 2])).toEqual([0, 0]);
    expect(apportion(3, [0, 0])).toEqual([0, 0]);
  });
  it('refuses a total that is not a whole number', () => {
    expect(() => apportion(2.5, [1])).toThrow(RangeError);
  });
});

describe('emissionFactorsFor', () => {
  it("prefers the state's factor, falls back to the US one, and names what neither has", () => {
    expect(emissions.factors.powerKgPerKwh.pm25).toBe(0.00002);
    expect(factors.onsiteKgPerUnit.natural_gas.nox).toBe(0.004);
    expect(emissions.missing).toEqual([]);
    expect(emissionFactorsFor('MA', emissionFactors).missing).toContain('electricity pm25 emission factor');
    const bare = emissionFactorsFor('RI', []);
    expect(bare.factors.onsiteKgPerUnit.propane.pm25).toBe(0);
    expect(bare.missing).toContain('propane pm25 emission factor');
  });
});

describe('countyHealthCells', () => {
  it("splits the county's 800 single-family households by supported heating fuel and the sample's bins", () => {
    expect(cellOf('electricity', '0-1499').households).toBe(200);
    expect(cellOf('natural_gas', '0-1499').households).toBe(450);
    expect(cellOf('natural_gas', '1500-2499').households).toBe(150);
  });

  it('puts its 200 multi-family households in the smallest bin, split by their own fuel shares', () => {
    expect(cellOf('electricity', '0-1499', HEALTH_UPGRADES[0], 'multi_family').households).toBe(100);
    expect(cellOf('natural_gas', '0-1499', HEALTH_UPGRADES[0], 'multi_family').households).toBe(100);
    // Empty bins and unsupported fuels have no cells; every upgrade and grid basis repeats the households.
    expect(cells).toHaveLength(5 * HEALTH_UPGRADES.length * 2);
    for (const upgrade of HEALTH_UPGRADES) {
      for (const grid of ['long_run', 'current_average']) {
        const all = cells
          .filter((c) => c.upgrade === upgrade && c.grid_emissions === grid)
          .reduce((sum, c) => sum + c.households, 0);
        expect(all).toBe(1000);
      }
    }
  });

  it("gives an apartment the cluster's mean change over all its homes, times RECS's apartment ratio", () => {
    for (const upgrade of HEALTH_UPGRADES) {
      const apartment = cellOf('natural_gas', '0-1499', upgrade, 'multi_family');
      const ratio = multiFamilyRatio(upgrade);
      // (30 × −500 + 10 × −800) / 40 therms and (30 × 3000 + 10 × 4000) / 40 kWh.
      expect(apartment.delta_natural_gas_therm).toBeCloseTo(-575 * ratio, 9);
      expect(apartment.delta_electricity_kwh).toBeCloseTo(3250 * ratio, 9);
      expect(apartment.sample_homes).toBe(40);
    }
  });

  it('turns fuel changes into kg avoided on site and at power plants (positive = avoided)', () => {
    const gas = cellOf('natural_gas', '0-1499');
    expect(gas.onsite_pm25_kg_avoided).toBe(67.5); // 450 × 500 therm × 0.0003 kg
    expect(gas.onsite_nox_kg_avoided).toBe(900); // 450 × 500 × 0.004
    expect(gas.power_pm25_kg_avoided).toBe(-27); // 450 × 3000 kWh × 0.00002 more
    expect(gas.power_so2_kg_avoided).toBe(-135); // 450 × 3000 × 0.0001 more
    expect(gas.pm25_kg_avoided).toBe(40.5);
    expect(gas.delta_natural_gas_therm).toBe(-500);
    // An electric home using less electricity avoids power-plant emissions only.
    const electric = cellOf('electricity', '0-1499');
    expect(electric.onsite_pm25_kg_avoided).toBe(0);
    expect(electric.power_pm25_kg_avoided).toBe(8); // 200 × 2000 × 0.00002
  });

  it("counts power plants' tonnes on each grid basis, and nothing else differently", () => {
    const today = cellOf('natural_gas', '0-1499');
    const longRun = cellOf('natural_gas', '0-1499', HEALTH_UPGRADES[0], 'single_family', 'long_run');
    expect(longRun.power_so2_kg_avoided).toBe(-67.5); // half of today's −135
    expect(longRun.power_pm25_kg_avoided).toBe(-13.5);
    expect(longRun.deaths_avoided_power).toBeCloseTo(-0.002025, 9);
    const { grid_emissions, ...sameOnSite } = longRun;
    expect(grid_emissions).toBe('long_run');
    expect(sameOnSite).toMatchObject({
      households: today.households,
      onsite_pm25_kg_avoided: today.onsite_pm25_kg_avoided,
      onsite_nox_kg_avoided: today.onsite_nox_kg_avoided,
      deaths_avoided_onsite: today.deaths_avoided_onsite,
      delta_electricity_kwh: today.delta_electricity_kwh,
    });
  });

  it('turns tonnes into deaths by sector and estimate, and deaths into dollars', () => {
    const gas = cellOf('natural_gas', '0-1499');
    expect(gas.deaths_avoided_onsite).toBeCloseTo(0.00675, 9); // 0.0675 t × 0.1
    // −0.027 t × 0.05 − 0.135 t × 0.02
    expect(gas.deaths_avoided_power).toBeCloseTo(-0.00405, 9);
    expect(gas.deaths_avoided).toBe(gas.deaths_avoided_onsite + gas.deaths_avoided_power);
    expect(gas.deaths_avoided_onsite_low).toBeCloseTo(0.0027, 9);
    expect(gas.deaths_avoided_power_low).toBeCloseTo(-0.00162, 9);
    expect(gas.deaths_avoided_low).toBe(gas.deaths_avoided_onsite_low + gas.deaths_avoided_power_low);
    expect(gas.mortality_value_usd).toBeCloseTo(0.0027 * VALUE_OF_STATISTICAL_LIFE.usd, 2);
    expect(gas.mortality_value_usd_low).toBeCloseTo(0.00108 * VALUE_OF_STATISTICAL_LIFE.usd, 2);
    // $7.4 million (2006$) × CPI-U 313.689 / 201.6.
    expect(VALUE_OF_STATISTICAL_LIFE).toEqual({ usd: (7_400_000 * 313.689) / 201.6, dollarYear: 2024 });
    expect(Math.round(VALUE_OF_STATISTICAL_LIFE.usd)).toBe(11_514_378);
  });

  it('keeps kg and deaths on dyadic grids, so sums are exact in any order', () => {
    for (const c of cells) {
      expect(Number.isInteger(c.pm25_kg_avoided * 2 ** 20)).toBe(true);
      expect(Number.isInteger(c.deaths_avoided * 2 ** 30)).toBe(true);
      expect(Number.isInteger(c.deaths_avoided_low * 2 ** 30)).toBe(true);
      expect(Number.isInteger(c.mortality_value_usd * 2 ** 8)).toBe(true);
      expect(quantizeDeaths(c.deaths_avoided)).toBe(c.deaths_avoided);
    }
    const deaths = cells.map((c) => c.deaths_avoided);
    const forward = deaths.reduce((a, b) => a + b, 0);
    const backward = [...deaths].reverse().reduce((a, b) => a + b, 0);
    const bySize = [...deaths].sort((a, b) => a - b).reduce((a, b) => a + b, 0);
    expect(backward).toBe(forward);
    expect(bySize).toBe(forward);
  });

  it('names a cluster that lacks an upgrade', () => {
    const partial = {
      heating_fuel: 'natural_gas' as const,
      bins: cluster('natural_gas', [['0-1499', 4, 0, -1]]).bins.slice(1),
    };
    expect(() => countyHealthCells(county, [partial], shares, factors, versions)).toThrow(
      /44007 natural_gas: no weatherization__insulation_air_duct_sealing change for bin 0-1499/,
    );
  });
});
