import {
  clusterId,
  type ClusterKey,
  type ClusterStatisticRow,
  clusterStatisticRowSchema,
  type CountyProfile,
  type EmissionFactor,
  emissionFactorSchema,
  type EnergyRate,
  energyRateSchema,
  gridEmissionFactorSchema,
  remCountyRowSchema,
  RESULT_FUELS,
  type ZipCounty,
  zipCountySchema,
} from '../../schemas/rem-data.ts';
import type { Upgrade } from '../../schemas/rem.ts';
import { gridEmissionFactors } from '../../transform/tables/rem/long-run-grid.ts';
import { remCountyRow } from '../../transform/tables/rem/rem-tables.ts';
import { FIXTURE_GRID_REGIONS, fixtureGridRegion } from './grid-fixture.ts';
import type { RouteGroup } from '../../serve/route-group.ts';
import { ENERGY_UNITS } from '../../serve/rem/cluster-statistics-store.ts';
import { createRemApi } from '../../serve/rem/rem-api.ts';
import {
  lakeServerForSpecs,
  programsTable,
  writeTablesSnapshot,
  type FixtureTable,
  type LakeServer,
} from './serve-lake-fixture.ts';

export { programsTable, writeTablesSnapshot };
import { z as zod } from 'zod';
import { specRemModel } from './rem-model.ts';

/** Two counties: Providence County, RI (gas heat common) and Lubbock County, TX. */
export const FIXTURE_COUNTIES: CountyProfile[] = [
  {
    county_fips: '44007',
    state: 'RI',
    name: 'Providence County',
    households: 250_000,
    mobile_home_share: 0.005,
    multi_unit_share: 0.45,
    climate_zone: '5A',
    latitude: 41.87,
    longitude: -71.58,
  },
  {
    county_fips: '48303',
    state: 'TX',
    name: 'Lubbock County',
    households: 115_000,
    mobile_home_share: 0.04,
    multi_unit_share: 0.3,
    climate_zone: '3B',
    latitude: 33.61,
    longitude: -101.82,
  },
];

export const FIXTURE_ZIPS: ZipCounty[] = [
  { zip: '02903', state: 'RI', county_fips: '44007', latitude: 41.82, longitude: -71.41 },
  { zip: '79401', state: 'TX', county_fips: '48303', latitude: 33.59, longitude: -101.85 },
  // A ZIP the table places in a county the county table lacks.
  { zip: '75001', state: 'TX', county_fips: '48113', latitude: 32.96, longitude: -96.84 },
];

const rate = (state: string, fuel: EnergyRate['fuel'], volumetric: number, fixed: number): EnergyRate => ({
  state,
  fuel,
  volumetric_rate: volumetric,
  volumetric_unit: fuel === 'electricity' ? '$/kWh' : fuel === 'natural_gas' ? '$/therm' : '$/gallon',
  fixed_monthly: fixed,
  year: 2023,
  publisher: 'fixture',
  method: 'fixture',
});

export const FIXTURE_RATES: EnergyRate[] = [
  rate('RI', 'electricity', 0.2891, 12),
  rate('RI', 'natural_gas', 1.9712, 12),
  rate('RI', 'fuel_oil', 3.9985, 0),
  rate('RI', 'propane', 3.6021, 0),
  rate('TX', 'electricity', 0.1463, 12),
  rate('TX', 'natural_gas', 1.3211, 12),
  rate('TX', 'fuel_oil', 3.7105, 0),
  rate('TX', 'propane', 2.4977, 0),
];

/** One CO2e emission factor row, as the emission-factors source gives it. */
export const co2eFactor = (
  region: string,
  fuel: EmissionFactor['fuel'],
  value: number,
  unit: string,
  basis: EmissionFactor['basis'],
): EmissionFactor => ({
  region,
  fuel,
  pollutant: 'co2e',
  value,
  unit,
  basis,
  year: 2022,
  publisher: 'fixture',
});

export const FIXTURE_FACTORS: EmissionFactor[] = [
  co2eFactor('US', 'natural_gas', 6.6798, 'kg/therm', 'combustion'),
  co2eFactor('US', 'fuel_oil', 12.3069, 'kg/gallon', 'combustion'),
  co2eFactor('US', 'propane', 7.3776, 'kg/gallon', 'combustion'),
  co2eFactor('US', 'electricity', 0.3901, 'kg/kWh', 'average'),
  co2eFactor('RI', 'electricity', 0.2764, 'kg/kWh', 'average'),
  { ...co2eFactor('US', 'natural_gas', 0.004182, 'kg/therm', 'combustion'), pollutant: 'nox' },
];

/** The fixture counties as rem_counties has them: their state's heating-fuel shares and their grid region. */
export const FIXTURE_COUNTY_ROWS = FIXTURE_COUNTIES.map((c) =>
  remCountyRow(c, fixtureGridRegion(c.county_fips)),
);

/** Their electricity factors on both grid bases, as rem_grid_emission_factors has them. */
export const FIXTURE_GRID_FACTORS = gridEmissionFactors(
  FIXTURE_COUNTY_ROWS,
  FIXTURE_GRID_REGIONS,
  FIXTURE_FACTORS,
);

/**
 * The lines of one (cluster, upgrade): every number distinct and derived from the line's position, so a
 * number served in the wrong place shows. `seed` separates clusters and upgrades.
 */
export function statisticLines(
  key: ClusterKey,
  state: string,
  upgrade: Upgrade,
  seed: number,
  samples: { num_samples: number; num_excluded_samples: number },
): ClusterStatisticRow[] {
  const scenarios =
    upgrade === 'baseline' ? (['baseline'] as const) : (['baseline', 'upgrade', 'delta'] as const);
  return RESULT_FUELS.flatMap((fuel, f) =>
    scenarios.map((scenario, s) => {
      const sign = scenario === 'delta' ? -1 : 1;
      const base = sign * (seed * 1000 + f * 100 + s * 10 + 0.123456);
      return {
        cluster_id: clusterId(key),
        ...key,
        state,
        upgrade,
        fuel,
        scenario,
        energy_unit: ENERGY_UNITS[fuel],
        energy_mean: base,
        energy_median: base + 1,
        energy_p20: base + 2,
        energy_p80: base + 3,
        emissions_mean: base / 2,
        emissions_median: base / 2 + 1,
        emissions_p20: base / 2 + 2,
        emissions_p80: base / 2 + 3,
        cost_mean: base / 4,
        cost_median: base / 4 + 1,
        cost_p20: base / 4 + 2,
        cost_p80: base / 4 + 3,
        ...samples,
      };
    }),
  );
}

export const GAS_PROVIDENCE: ClusterKey = {
  county_fips: '44007',
  heating_fuel: 'natural_gas',
  water_heater_fuel: null,
};
export const GAS_GAS_PROVIDENCE: ClusterKey = {
  county_fips: '44007',
  heating_fuel: 'natural_gas',
  water_heater_fuel: 'natural_gas',
};
export const PROPANE_LUBBOCK: ClusterKey = {
  county_fips: '48303',
  heating_fuel: 'propane',
  water_heater_fuel: null,
};

export const FIXTURE_STATISTICS: ClusterStatisticRow[] = [
  ...statisticLines(GAS_PROVIDENCE, 'RI', 'baseline', 1, { num_samples: 400, num_excluded_samples: 0 }),
  ...statisticLines(GAS_PROVIDENCE, 'RI', 'hvac__heat_pump_seer18_hspf10', 2, {
    num_samples: 388,
    num_excluded_samples: 12,
  }),
  // Every sample home already meets the weatherization thresholds: lines exist, with no samples.
  ...statisticLines(GAS_PROVIDENCE, 'RI', 'weatherization__insulation_air_duct_sealing', 3, {
    num_samples: 0,
    num_excluded_samples: 400,
  }),
  ...statisticLines(GAS_GAS_PROVIDENCE, 'RI', 'baseline', 4, { num_samples: 400, num_excluded_samples: 0 }),
  ...statisticLines(GAS_GAS_PROVIDENCE, 'RI', 'water_heater__heat_pump_uef3.35', 5, {
    num_samples: 371,
    num_excluded_samples: 29,
  }),
  ...statisticLines(PROPANE_LUBBOCK, 'TX', 'baseline', 6, { num_samples: 400, num_excluded_samples: 0 }),
];

/** The columns of the simulate stage's `rem_clusters` table the REM routes read. */
const clusterRowSchema = zod.object({
  cluster_id: zod.string(),
  county_fips: zod.string(),
  heating_fuel: zod.string(),
  water_heater_fuel: zod.string().nullable(),
  supported: zod.boolean(),
});

/**
 * Every cluster the fixture's simulate stage "ran": the three with statistics, and two the sampler found
 * implausible in Lubbock County (propane heat with a gas water heater, fuel-oil heat). Lubbock's other
 * fuels were not precomputed (the API computes them on request).
 */
export const FIXTURE_CLUSTERS = [
  ...[GAS_PROVIDENCE, GAS_GAS_PROVIDENCE, PROPANE_LUBBOCK].map((key) => ({ key, supported: true })),
  { key: { ...PROPANE_LUBBOCK, water_heater_fuel: 'natural_gas' as const }, supported: false },
  { key: { ...PROPANE_LUBBOCK, heating_fuel: 'fuel_oil' as const }, supported: false },
].map(({ key, supported }) => ({ cluster_id: clusterId(key), ...key, supported }));

/** The REM tables of a snapshot (optionally with other fixture tables beside them). */
export function remFixtureTables(
  statistics: readonly ClusterStatisticRow[] = FIXTURE_STATISTICS,
): FixtureTable[] {
  return [
    { name: 'rem_counties', row: remCountyRowSchema, rows: FIXTURE_COUNTY_ROWS },
    { name: 'rem_zip_counties', row: zipCountySchema, rows: FIXTURE_ZIPS },
    { name: 'rem_energy_rates', row: energyRateSchema, rows: FIXTURE_RATES },
    { name: 'rem_emission_factors', row: emissionFactorSchema, rows: FIXTURE_FACTORS },
    { name: 'rem_grid_emission_factors', row: gridEmissionFactorSchema, rows: FIXTURE_GRID_FACTORS },
    { name: 'rem_clusters', row: clusterRowSchema, rows: FIXTURE_CLUSTERS },
    { name: 'rem_cluster_statistics', row: clusterStatisticRowSchema, rows: statistics },
  ];
}

export const REM_TEST_KEY = 'rem-test-key-0123456789abcdef';

/**
 * For a spec file: a temporary lake whose published snapshot `id` holds the fixture REM tables (and the
 * stand-in programs table), the server over it, and both removed afterwards. `before` may write other
 * snapshots first. Returns a getter, since the server exists only once beforeAll has run.
 */
export function remServerForSpecs(id: string, before?: (lakeDir: string) => Promise<void>): () => LakeServer {
  return lakeServerForSpecs(id, {
    tables: () => remFixtureTables(),
    routeGroups: () => [createRemApi({ model: specRemModel() })] as RouteGroup<unknown>[],
    key: REM_TEST_KEY,
    before,
  });
}
