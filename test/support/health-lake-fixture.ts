import {
  HEALTH_POLLUTANTS,
  HEALTH_UPGRADES,
  SQFT_BINS,
  VALUE_OF_STATISTICAL_LIFE,
  healthImpactCellSchema,
  type HealthImpactCell,
  type HousingType,
  type SqftBin,
} from '../../schemas/health-data.ts';
import type { Manifest } from '../../schemas/lake.ts';
import { GRID_EMISSIONS, type GridEmissions } from '../../schemas/rem-data.ts';
import { FUELS } from '../../schemas/rem.ts';
import type { RouteGroup } from '../../serve/route-group.ts';
import { createHealthApi } from '../../serve/health/health-api.ts';
import { HEALTH_COUNTY_IMPACTS } from '../../data-lake/tables/health.ts';
import { lakeServerForSpecs, type FixtureTable } from './serve-lake-fixture.ts';

/*
 * A small `health_county_impacts` as the simulate stage's rollup would write it: five counties of three
 * states. Single-family cells for every upgrade × heating fuel × floor-area bin; multi-family cells (every
 * upgrade × heating fuel, all in bin 0-1499, as the rollup places them) in four of the counties, not in
 * Menominee, on both grid bases. Numbers are made up but shaped like the real ones (on-site emissions
 * avoided, SO2 from power plants increased, twice as much on today's grid, apartments changing less per household, the low mortality estimate about 0.42 of the
 * central one) and quantized as the contract says (kg to 2⁻²⁰, deaths to 2⁻³⁰, dollars to 2⁻⁸), so sums
 * are exact.
 */

export const HEALTH_TEST_KEY = 'health-test-key-0123456789abcdef';

/** Each county's single-family (`households`) and multi-family (`multiFamily`) households. */
export const HEALTH_FIXTURE_COUNTIES = [
  {
    county_fips: '44007',
    state: 'RI',
    county_name: 'Providence County',
    households: 160_000,
    multiFamily: 96_000,
  },
  // Few multi-family households: its multi-family rows carry both warnings.
  {
    county_fips: '44009',
    state: 'RI',
    county_name: 'Washington County',
    households: 41_000,
    multiFamily: 4_160,
  },
  {
    county_fips: '48303',
    state: 'TX',
    county_name: 'Lubbock County',
    households: 70_000,
    multiFamily: 38_400,
  },
  { county_fips: '55025', state: 'WI', county_name: 'Dane County', households: 120_000, multiFamily: 88_000 },
  // Few households, and no multi-family cells at all: its rows carry only the few-households warning.
  { county_fips: '55078', state: 'WI', county_name: 'Menominee County', households: 1_300, multiFamily: 0 },
] as const;

/** Shares of a county's households by heating fuel (FUELS order) and by floor-area bin (SQFT_BINS order). */
const FUEL_SHARES = [0.25, 0.5, 0.125, 0.125];
const BIN_SHARES = [0.375, 0.375, 0.1875, 0.0625];
/** Multi-family households by heating fuel (more electric heat), and their change relative to a single-family home's. */
const MULTI_FAMILY_FUEL_SHARES = [0.5, 0.375, 0.0625, 0.0625];
const MULTI_FAMILY_RATIO = 0.45;
/** On-site kg avoided per household and year, by heating fuel (none for electric heat but its water heater). */
const ONSITE_KG = {
  pm25: [0.01, 0.04, 0.2, 0.03],
  nh3: [0.005, 0.02, 0.01, 0.01],
  nox: [0.2, 1.2, 1.5, 1.1],
  voc: [0.02, 0.08, 0.1, 0.09],
  so2: [0, 0.01, 0.4, 0.005],
};
/** Power-plant kg avoided per household and year on the long-run grid (negative: the added generation emits). */
const POWER_KG = { pm25: -0.03, nh3: -0.002, nox: -0.4, voc: -0.01, so2: -0.6 };
/** Today's grid emits twice as much per kWh as the long-run one. */
const POWER_SCALE: Readonly<Record<GridEmissions, number>> = { long_run: 1, current_average: 2 };
/** Deaths per kg, on site and at power plants, by the central and the low estimate (made up, of the order of published factors). */
const DEATHS_PER_KG = { onsite: 2e-5, power: 1e-5 };
const DEATHS_PER_KG_LOW = { onsite: 0.85e-5, power: 0.425e-5 };

const kg = (value: number) => Math.round(value * 2 ** 20) / 2 ** 20 + 0;
const deaths = (value: number) => Math.round(value * 2 ** 30) / 2 ** 30 + 0;
const usd = (value: number) => Math.round(value * 2 ** 8) / 2 ** 8 + 0;

/** One cell: `households` of the county, and `scale`, their kilograms' multiple of the per-household figures. */
function cell(
  county: (typeof HEALTH_FIXTURE_COUNTIES)[number],
  keys: {
    upgrade: HealthImpactCell['upgrade'];
    fuel: number;
    bin: SqftBin;
    housing: HousingType;
    grid: GridEmissions;
  },
  households: number,
  scale: number,
): HealthImpactCell {
  const kgColumns: Record<string, number> = {};
  const sums = { onsite: 0, power: 0, onsiteLow: 0, powerLow: 0 };
  for (const pollutant of HEALTH_POLLUTANTS) {
    const onsite = kg(scale * ONSITE_KG[pollutant][keys.fuel]!);
    const power = kg(scale * POWER_KG[pollutant] * POWER_SCALE[keys.grid]);
    kgColumns[`onsite_${pollutant}_kg_avoided`] = onsite;
    kgColumns[`power_${pollutant}_kg_avoided`] = power;
    kgColumns[`${pollutant}_kg_avoided`] = onsite + power;
    // NH3 and VOC add no deaths (no published per-tonne figure), as in the default damage factors.
    if (pollutant === 'nh3' || pollutant === 'voc') continue;
    sums.onsite += onsite * DEATHS_PER_KG.onsite;
    sums.power += power * DEATHS_PER_KG.power;
    sums.onsiteLow += onsite * DEATHS_PER_KG_LOW.onsite;
    sums.powerLow += power * DEATHS_PER_KG_LOW.power;
  }
  const [onsite, power] = [deaths(sums.onsite), deaths(sums.power)];
  const [onsiteLow, powerLow] = [deaths(sums.onsiteLow), deaths(sums.powerLow)];
  const multiFamily = keys.housing === 'multi_family';
  return healthImpactCellSchema.parse({
    county_fips: county.county_fips,
    state: county.state,
    county_name: county.county_name,
    upgrade: keys.upgrade,
    heating_fuel: FUELS[keys.fuel],
    sqft_bin: keys.bin,
    housing_type: keys.housing,
    grid_emissions: keys.grid,
    households,
    // A multi-family cell's change comes from all the cluster's sample homes.
    sample_homes: multiFamily ? 400 : 100,
    upgraded_homes: multiFamily ? 360 : 90,
    // The fuel changes are not served: zero in whatever columns the contract names them.
    ...Object.fromEntries(
      Object.keys(healthImpactCellSchema.shape)
        .filter((column) => column.startsWith('delta_'))
        .map((column) => [column, 0]),
    ),
    ...kgColumns,
    deaths_avoided_onsite: onsite,
    deaths_avoided_power: power,
    deaths_avoided: onsite + power,
    deaths_avoided_onsite_low: onsiteLow,
    deaths_avoided_power_low: powerLow,
    deaths_avoided_low: onsiteLow + powerLow,
    mortality_value_usd: usd((onsite + power) * VALUE_OF_STATISTICAL_LIFE.usd),
    mortality_value_usd_low: usd((onsiteLow + powerLow) * VALUE_OF_STATISTICAL_LIFE.usd),
    code_version: 'c0de00000000',
    model_version: 'surrogate-7f3a',
    factors_version: 'ef-1c2d',
    damage_factors_version: 'df-9e8b',
  });
}

/**
 * Every cell of the fixture table on one grid basis, or on both (the table): each county × upgrade × heating
 * fuel × bin of single-family homes, then (counties with multi-family households) each upgrade × heating fuel
 * of multi-family ones, in bin 0-1499.
 */
export function healthFixtureCells(
  bases: readonly GridEmissions[] | GridEmissions = GRID_EMISSIONS,
): HealthImpactCell[] {
  return (typeof bases === 'string' ? [bases] : bases).flatMap((grid) =>
    HEALTH_FIXTURE_COUNTIES.flatMap((county, c) =>
      HEALTH_UPGRADES.flatMap((upgrade, u) =>
        FUELS.flatMap((_fuel, f) => {
          // Larger homes and later upgrades avoid more; counties differ a little.
          const factor = ((u + 1) / 4) * (1 + c / 10);
          const singleFamily = SQFT_BINS.map((bin, b) => {
            const households = Math.round(county.households * FUEL_SHARES[f]! * BIN_SHARES[b]!);
            const keys = { upgrade, fuel: f, bin, housing: 'single_family', grid } as const;
            return cell(county, keys, households, households * (1 + b / 2) * factor);
          });
          if (county.multiFamily === 0) return singleFamily;
          const households = Math.round(county.multiFamily * MULTI_FAMILY_FUEL_SHARES[f]!);
          const keys = { upgrade, fuel: f, bin: '0-1499', housing: 'multi_family', grid } as const;
          return [...singleFamily, cell(county, keys, households, households * MULTI_FAMILY_RATIO * factor)];
        }),
      ),
    ),
  );
}

/** The manifest's sources: two the rollup read, one it did not. */
export const HEALTH_FIXTURE_SOURCES: Manifest['sources'] = {
  'damage-factors': source('health-damage-factors', '2024.1', { 'health.damage-factor': 20 }),
  'emission-factors': source('rem-emission-factors', '2023.2', { 'rem.emission-factor': 60 }),
  incentives: source('rewiring-america-open-data', 'abc123', { 'incentives.program': 5 }),
};

function source(kind: string, version: string, records: Record<string, number>) {
  return {
    kind,
    location: `./fixture/${kind}`,
    version,
    contentHash: '0'.repeat(64),
    fetchedAt: '2026-11-20T00:00:00.000Z',
    records: Object.fromEntries(
      Object.entries(records).map(([name, accepted]) => [name, { accepted, quarantined: 0 }]),
    ),
  };
}

export const healthFixtureTable = (
  cells: readonly HealthImpactCell[] = healthFixtureCells(),
): FixtureTable => ({
  ...HEALTH_COUNTY_IMPACTS,
  rows: cells,
  inputs: { records: ['health.damage-factor', 'rem.emission-factor'], tables: [] },
});

/** For a spec file: the server over a lake whose snapshot `id` holds the fixture health table. */
export const healthServerForSpecs = (id: string, before?: (lakeDir: string) => Promise<void>) =>
  lakeServerForSpecs(id, {
    tables: () => [healthFixtureTable()],
    routeGroups: () => [createHealthApi()] as RouteGroup<unknown>[],
    key: HEALTH_TEST_KEY,
    sources: HEALTH_FIXTURE_SOURCES,
    before,
  });
