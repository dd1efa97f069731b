import { describe, expect, it } from 'vitest';
import type { ClusterStatisticRow, EmissionFactor, EnergyRate } from '../../schemas/rem-data.ts';
import { hashSeed } from '../../model/random.ts';
import { clusterStatistics } from '../../model/savings/cluster-statistics.ts';
import { fuelPricesFor } from '../../model/savings/fuel-prices.ts';
import { decodeStatistics, encodeStatistics } from '../../simulate/statistics-arrow.ts';
import { clusterKeysOf, planWorkUnits } from '../../simulate/work-units.ts';
import { gridEmissionFactors } from '../../transform/tables/rem/long-run-grid.ts';
import { FIXTURE_GRID_REGIONS } from '../support/grid-fixture.ts';
import { ST_LOUIS_MN as ST_LOUIS, SUFFOLK_MA as SUFFOLK } from '../support/rem-counties.ts';

const rate = (state: string, fuel: EnergyRate['fuel'], volumetric_rate: number): EnergyRate => ({
  state,
  fuel,
  volumetric_rate,
  volumetric_unit: fuel === 'electricity' ? '$/kWh' : fuel === 'natural_gas' ? '$/therm' : '$/gallon',
  fixed_monthly: fuel === 'electricity' || fuel === 'natural_gas' ? 12 : 0,
  year: 2023,
  publisher: 'test fixture',
  method: 'round figures',
});
const RATES = ['MA', 'MN'].flatMap((state) =>
  (['electricity', 'natural_gas', 'fuel_oil', 'propane'] as const).map((fuel, i) =>
    rate(state, fuel, [0.3, 2, 4, 3][i]!),
  ),
);
const FACTORS: EmissionFactor[] = (['electricity', 'natural_gas', 'fuel_oil', 'propane'] as const).map(
  (fuel, i) => ({
    region: 'US',
    fuel,
    pollutant: 'co2e',
    value: [0.39, 6.6798, 12.3069, 7.3776][i]!,
    unit: fuel === 'electricity' ? 'kg/kWh' : fuel === 'natural_gas' ? 'kg/therm' : 'kg/gallon',
    basis: fuel === 'electricity' ? 'average' : 'combustion',
    year: 2022,
    publisher: 'test fixture',
  }),
);
const SUFFOLK_MA = { ...SUFFOLK, grid_region: 'ISONE' };
const ST_LOUIS_MN = { ...ST_LOUIS, grid_region: 'MISO_North' };
const GRID = gridEmissionFactors([SUFFOLK_MA, ST_LOUIS_MN], FIXTURE_GRID_REGIONS, FACTORS);
const MODEL = { version: 'rem-surrogate-test', sha256: 'a'.repeat(64) };
const CODE = '0123456789ab'.repeat(5) + 'cdef';
const PLAN = { samples: 400, model: MODEL, code: CODE };

describe('planWorkUnits', () => {
  const units = planWorkUnits([ST_LOUIS_MN, SUFFOLK_MA], RATES, FACTORS, GRID, PLAN);

  it('makes the 20 clusters of each county, seeded by cluster id alone', () => {
    expect(clusterKeysOf('25025')).toHaveLength(20);
    expect(units).toHaveLength(40);
    expect(units.map((u) => u.county.county_fips)).toEqual([
      ...Array<string>(20).fill(SUFFOLK_MA.county_fips),
      ...Array<string>(20).fill(ST_LOUIS_MN.county_fips),
    ]);
    const gas = units.find((u) => u.cluster_id === '25025|natural_gas|-')!;
    // The salt is the sampler version seeds were drawn with before code hashes, so the homes stay the same.
    expect(gas.seed).toBe(hashSeed('25025|natural_gas|-|rem-housing-stock-2026.11.2').toString());
    expect(gas.versions).toMatchObject({ code: '0123456789ab', model: MODEL.version });
    expect(new Set(units.map((u) => u.fingerprint)).size).toBe(40);
  });

  it('changes the fingerprints of one state only when that state’s rates change', () => {
    const dearer = RATES.map((r) =>
      r.state === 'MN' && r.fuel === 'propane' ? { ...r, volumetric_rate: 3.5 } : r,
    );
    const again = planWorkUnits([SUFFOLK_MA, ST_LOUIS_MN], dearer, FACTORS, GRID, PLAN);
    const changed = again
      .filter((u, i) => u.fingerprint !== units[i]!.fingerprint)
      .map((u) => u.county.state);
    expect(changed).toEqual(Array<string>(20).fill('MN'));
    const otherModel = planWorkUnits([SUFFOLK_MA], RATES, FACTORS, GRID, {
      ...PLAN,
      model: { ...MODEL, sha256: 'b'.repeat(64) },
    });
    expect(otherModel[0]!.fingerprint).not.toBe(units[0]!.fingerprint);
  });

  it('changes every fingerprint, and no seed, when the simulate code changes', () => {
    const otherCode = planWorkUnits([ST_LOUIS_MN, SUFFOLK_MA], RATES, FACTORS, GRID, {
      ...PLAN,
      code: 'f'.repeat(64),
    });
    expect(otherCode.filter((u, i) => u.fingerprint === units[i]!.fingerprint)).toEqual([]);
    expect(otherCode.map((u) => u.seed)).toEqual(units.map((u) => u.seed));
    expect(otherCode[0]!.versions.code).toBe('ffffffffffff');
  });

  it('changes the fingerprints when the sample count changes', () => {
    const fewer = planWorkUnits([ST_LOUIS_MN, SUFFOLK_MA], RATES, FACTORS, GRID, { ...PLAN, samples: 100 });
    expect(fewer.filter((u, i) => u.fingerprint === units[i]!.fingerprint)).toEqual([]);
  });

  it('plans only the clusters asked for, and the same units as a full plan for them', () => {
    const healthOnly = planWorkUnits([ST_LOUIS_MN, SUFFOLK_MA], RATES, FACTORS, GRID, {
      ...PLAN,
      include: (county, cluster) => county.state === 'MA' || cluster.water_heater_fuel === null,
    });
    // All 20 of Suffolk's (MA), the 4 with a drawn water-heater fuel of St. Louis's (MN), counties in order.
    expect(healthOnly.map((u) => u.cluster_id)).toEqual([
      ...units.filter((u) => u.county.state === 'MA').map((u) => u.cluster_id),
      '27137|electricity|-',
      '27137|natural_gas|-',
      '27137|fuel_oil|-',
      '27137|propane|-',
    ]);
    expect(healthOnly.find((u) => u.cluster_id === '27137|propane|-')).toEqual(
      units.find((u) => u.cluster_id === '27137|propane|-'),
    );
  });

  it("prices each county's electricity on its grid region's long-run CO2e rate", () => {
    // ISONE 150 and MISO_North 210 kg/MWh in the fixture regions, against the US average row's 0.39 kg/kWh.
    const gasOf = (fips: string) => units.find((u) => u.cluster_id === `${fips}|natural_gas|-`)!;
    expect(gasOf('25025').prices.electricity.kgCo2ePerUnit).toBeCloseTo(0.15, 12);
    expect(gasOf('27137').prices.electricity.kgCo2ePerUnit).toBeCloseTo(0.21, 12);
    expect(gasOf('25025').prices.natural_gas.kgCo2ePerUnit).toBeCloseTo(6.6798, 12);
  });

  it("changes the fingerprints of one region's counties only when its long-run rate changes", () => {
    const regions = FIXTURE_GRID_REGIONS.map((r) =>
      r.grid_region === 'ISONE' ? { ...r, lrmer_co2e_kg_per_mwh: 140 } : r,
    );
    const again = planWorkUnits(
      [ST_LOUIS_MN, SUFFOLK_MA],
      RATES,
      FACTORS,
      gridEmissionFactors([SUFFOLK_MA, ST_LOUIS_MN], regions, FACTORS),
      PLAN,
    );
    const changed = again
      .filter((u, i) => u.fingerprint !== units[i]!.fingerprint)
      .map((u) => u.county.county_fips);
    expect(changed).toEqual(Array<string>(20).fill('25025'));
  });

  it('names a state without rates', () => {
    expect(() => planWorkUnits([SUFFOLK_MA], RATES.slice(4), FACTORS, GRID, PLAN)).toThrow(
      'no electricity rate for MA',
    );
  });
});

describe('statistics as Arrow IPC', () => {
  it('round-trips every line of a cluster exactly', () => {
    const identity = {
      cluster_id: '25025|natural_gas|-',
      county_fips: '25025',
      state: 'MA',
      heating_fuel: 'natural_gas' as const,
      water_heater_fuel: null,
    };
    const baseline = Float64Array.from([9000.123456, 15000, 0, 0, 7000, 0, 0, 0]);
    const upgraded = Float64Array.from([12000, 0, 0, 0, 7000, 0, 0, 0]);
    const rows: ClusterStatisticRow[] = clusterStatistics(
      identity,
      baseline,
      [
        { upgrade: 'baseline', applicable: Uint8Array.of(1, 1), kwh: baseline },
        { upgrade: 'hvac__heat_pump_seer24_hspf13', applicable: Uint8Array.of(1, 0), kwh: upgraded },
      ],
      fuelPricesFor('MA', RATES, FACTORS),
    );
    const bytes = encodeStatistics(rows);
    expect(decodeStatistics(identity, bytes)).toEqual(rows);
    expect(rows).toHaveLength(20);
  });
});
