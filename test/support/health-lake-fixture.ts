import {
  HEALTH_POLLUTANTS,
  HEALTH_UPGRADES,
  SQFT_BINS,
  healthImpactCellSchema,
  type HealthImpactCell,
} from '../../schemas/health-data.ts';
import type { Manifest } from '../../schemas/lake.ts';
import { FUELS } from '../../schemas/rem.ts';
import type { ApiModule } from '../../serve/api-module.ts';
import { createHealthApi } from '../../serve/health/health-api.ts';
import { HEALTH_IMPACTS_TABLE } from '../../schemas/health-data.ts';
import { lakeServerForSpecs, type FixtureTable } from './serve-lake-fixture.ts';

/*
 * A small `health_county_impacts` as the simulate stage's rollup would write it: five counties of three
 * states, every upgrade × heating fuel × floor-area bin. Numbers are made up but shaped like the real ones
 * (on-site emissions avoided, SO2 from power plants increased) and quantized as the contract says (kg to
 * 2⁻²⁰, deaths to 2⁻³⁰), so sums are exact.
 */

export const HEALTH_TEST_KEY = 'health-test-key-0123456789abcdef';

export const HEALTH_FIXTURE_COUNTIES = [
  { county_fips: '44007', state: 'RI', county_name: 'Providence County', households: 160_000 },
  { county_fips: '44009', state: 'RI', county_name: 'Washington County', households: 41_000 },
  { county_fips: '48303', state: 'TX', county_name: 'Lubbock County', households: 70_000 },
  { county_fips: '55025', state: 'WI', county_name: 'Dane County', households: 120_000 },
  // Few households: its rows carry the warning.
  { county_fips: '55078', state: 'WI', county_name: 'Menominee County', households: 1_300 },
] as const;

/** Shares of a county's households by heating fuel (FUELS order) and by floor-area bin (SQFT_BINS order). */
const FUEL_SHARES = [0.25, 0.5, 0.125, 0.125];
const BIN_SHARES = [0.375, 0.375, 0.1875, 0.0625];
/** On-site kg avoided per household and year, by heating fuel (none for electric heat but its water heater). */
const ONSITE_KG = {
  pm25: [0.01, 0.04, 0.2, 0.03],
  nh3: [0.005, 0.02, 0.01, 0.01],
  nox: [0.2, 1.2, 1.5, 1.1],
  voc: [0.02, 0.08, 0.1, 0.09],
  so2: [0, 0.01, 0.4, 0.005],
};
/** Power-plant kg avoided per household and year (negative: the added generation emits). */
const POWER_KG = { pm25: -0.03, nh3: -0.002, nox: -0.4, voc: -0.01, so2: -0.6 };
/** Deaths per kg, on site and at power plants (made up, of the order of published damage factors). */
const DEATHS_PER_KG = { onsite: 2e-5, power: 1e-5 };

const kg = (value: number) => Math.round(value * 2 ** 20) / 2 ** 20;
const deaths = (value: number) => Math.round(value * 2 ** 30) / 2 ** 30;

/** Every cell of the fixture table: each county × upgrade × heating fuel × bin. */
export function healthFixtureCells(): HealthImpactCell[] {
  return HEALTH_FIXTURE_COUNTIES.flatMap((county, c) =>
    HEALTH_UPGRADES.flatMap((upgrade, u) =>
      FUELS.flatMap((heatingFuel, f) =>
        SQFT_BINS.map((bin, b) => {
          const households = Math.round(county.households * FUEL_SHARES[f]! * BIN_SHARES[b]!);
          // Larger homes and later upgrades avoid more; counties differ a little.
          const scale = households * (1 + b / 2) * ((u + 1) / 4) * (1 + c / 10);
          const kgColumns: Record<string, number> = {};
          let onsiteDeaths = 0;
          let powerDeaths = 0;
          for (const pollutant of HEALTH_POLLUTANTS) {
            const onsite = kg(scale * ONSITE_KG[pollutant][f]!);
            const power = kg(scale * POWER_KG[pollutant]);
            kgColumns[`onsite_${pollutant}_kg_avoided`] = onsite;
            kgColumns[`power_${pollutant}_kg_avoided`] = power;
            kgColumns[`${pollutant}_kg_avoided`] = onsite + power;
            onsiteDeaths += onsite * DEATHS_PER_KG.onsite;
            powerDeaths += power * DEATHS_PER_KG.power;
          }
          const deathsOnsite = deaths(onsiteDeaths);
          const deathsPower = deaths(powerDeaths);
          return healthImpactCellSchema.parse({
            county_fips: county.county_fips,
            state: county.state,
            county_name: county.county_name,
            upgrade,
            heating_fuel: heatingFuel,
            sqft_bin: bin,
            households,
            sample_homes: 100,
            upgraded_homes: 90,
            // The fuel changes are not served: zero in whatever columns the contract names them.
            ...Object.fromEntries(
              Object.keys(healthImpactCellSchema.shape)
                .filter((column) => column.startsWith('delta_'))
                .map((column) => [column, 0]),
            ),
            ...kgColumns,
            deaths_avoided_onsite: deathsOnsite,
            deaths_avoided_power: deathsPower,
            deaths_avoided: deathsOnsite + deathsPower,
            code_version: 'c0de00000000',
            model_version: 'surrogate-7f3a',
            factors_version: 'ef-1c2d',
            damage_factors_version: 'df-9e8b',
          });
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
  name: HEALTH_IMPACTS_TABLE,
  row: healthImpactCellSchema,
  rows: cells,
  inputs: { records: ['health.damage-factor', 'rem.emission-factor'], tables: [] },
});

/** For a spec file: the server over a lake whose snapshot `id` holds the fixture health table. */
export const healthServerForSpecs = (id: string, before?: (lakeDir: string) => Promise<void>) =>
  lakeServerForSpecs(id, {
    tables: () => [healthFixtureTable()],
    modules: () => [createHealthApi()] as ApiModule<unknown>[],
    key: HEALTH_TEST_KEY,
    sources: HEALTH_FIXTURE_SOURCES,
    before,
  });
