import { localLake } from '../../../data-lake/lake.ts';
import { beforeAll, describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { HEALTH_ESTIMATES, HEALTH_STATEMENT } from '../../../schemas/health-model.ts';
import {
  HEALTH_UPGRADES,
  HOUSING_TYPES,
  SQFT_BINS,
  VALUE_OF_STATISTICAL_LIFE,
  type HealthImpactCell,
} from '../../../schemas/health-data.ts';
import {
  ALL_BINS,
  ALL_HOUSING,
  IMPACT_MEASURES,
  LOW_MEASURES,
  MEASURES,
  MEASURE_COLUMNS,
  loadHealthSnapshot,
  multiFamilySlotsOf,
  slotsOf,
  sumOver,
  upgradeAt,
  valueAt,
  type HealthData,
} from '../../../serve/health/health-data.ts';
import { openSnapshotInChildProcess } from '../../../serve/snapshot/child-process-snapshot-reader.ts';
import {
  HEALTH_FIXTURE_COUNTIES,
  HEALTH_FIXTURE_SOURCES,
  healthFixtureCells,
  healthFixtureTable,
} from '../../support/health-lake-fixture.ts';
import { writeTablesSnapshot } from '../../support/serve-lake-fixture.ts';

let lakeDir: string;
it.beforeAll(async ({ fileTempDir }) => {
  lakeDir = fileTempDir;
});

/** Loads cells through a real lake snapshot and the serving process's child reader: the data on both bases. */
async function loadBoth(id: string, cells: HealthImpactCell[]) {
  await writeTablesSnapshot(lakeDir, id, [healthFixtureTable(cells)], {
    publish: false,
    sources: HEALTH_FIXTURE_SOURCES,
  });
  const { data } = await loadHealthSnapshot(await openSnapshotInChildProcess(localLake(lakeDir), id));
  return data!;
}

/** The same, the long-run (default) basis's data. */
const load = async (id: string, cells: HealthImpactCell[]): Promise<HealthData> =>
  (await loadBoth(id, cells)).long_run;

const cellValue = (cell: HealthImpactCell, measure: number) => cell[MEASURE_COLUMNS[measure]!] as number;

describe('the health sums loaded from a snapshot', () => {
  const cells = healthFixtureCells('long_run');
  let data: HealthData;
  let today: HealthData;
  beforeAll(async () => {
    ({ long_run: data, current_average: today } = await loadBoth('sums', healthFixtureCells()));
  }, 60_000);

  it("keep each grid basis apart: the same households, today's grid with its own power-plant tonnes", () => {
    const todays = healthFixtureCells('current_average');
    const so2 = MEASURE_COLUMNS.indexOf('so2_kg_avoided');
    const sumOf = (list: HealthImpactCell[], measure: number) =>
      list
        .filter((c) => c.county_fips === '44007' && c.upgrade === HEALTH_UPGRADES[0])
        .reduce((sum, c) => sum + cellValue(c, measure), 0);
    const total = slotsOf(ALL_BINS, ALL_HOUSING);
    expect(sumOver(today.counties.values, upgradeAt(0, 0), total, 0)).toBe(
      sumOver(data.counties.values, upgradeAt(0, 0), total, 0),
    );
    expect(sumOver(today.counties.values, upgradeAt(0, 0), total, so2)).toBe(sumOf(todays, so2));
    expect(sumOver(data.counties.values, upgradeAt(0, 0), total, so2)).toBe(sumOf(cells, so2));
    expect(sumOf(todays, so2)).not.toBe(sumOf(cells, so2));
  });

  it('keep households, then each metric, then the low estimates of deaths and their value', () => {
    expect(MEASURE_COLUMNS).toEqual([
      'households',
      'deaths_avoided',
      'mortality_value_usd',
      'pm25_kg_avoided',
      'nh3_kg_avoided',
      'nox_kg_avoided',
      'voc_kg_avoided',
      'so2_kg_avoided',
      'deaths_avoided_low',
      'mortality_value_usd_low',
    ]);
    expect(MEASURES).toBe(10);
    expect(IMPACT_MEASURES).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(LOW_MEASURES).toEqual([8, 9, -1, -1, -1, -1, -1]);
  });

  it('hold, per county, upgrade, bin and housing type, exactly the sum of the cells over heating fuels', () => {
    expect(data.counties.areas.map((a) => a.fips)).toEqual(HEALTH_FIXTURE_COUNTIES.map((c) => c.county_fips));
    data.counties.areas.forEach((county, c) => {
      const { multiFamily } = HEALTH_FIXTURE_COUNTIES[c]!;
      HEALTH_UPGRADES.forEach((upgrade, u) => {
        SQFT_BINS.forEach((bin, b) => {
          HOUSING_TYPES.forEach((housing, h) => {
            const matching = cells.filter(
              (cell) =>
                cell.county_fips === county.fips &&
                cell.upgrade === upgrade &&
                cell.sqft_bin === bin &&
                cell.housing_type === housing,
            );
            // Multi-family cells: one per heating fuel, all in the smallest bin, where the county has any.
            const single = housing === 'single_family';
            expect(matching).toHaveLength(single || (b === 0 && multiFamily > 0) ? 4 : 0);
            for (let m = 0; m < MEASURES; m++) {
              const expected = matching.reduce((sum, cell) => sum + cellValue(cell, m), 0);
              expect(data.counties.values[valueAt(c, u, b, h, m)]).toBe(expected);
            }
          });
        });
      });
    });
    // Menominee has no multi-family households; the others' are all in their smallest bin.
    const menominee = HEALTH_FIXTURE_COUNTIES.findIndex((c) => c.county_name === 'Menominee County');
    for (let m = 0; m < MEASURES; m++) expect(data.counties.values[valueAt(menominee, 0, 0, 1, m)]).toBe(0);
    expect(data.counties.values[valueAt(0, 0, 0, 1, 0)]).toBe(96_000);
  });

  it('add up exactly, before any rounding: counties to their state, for every measure and both estimates', () => {
    const { states, counties } = data;
    expect(states.areas.map((a) => [a.fips, a.state])).toEqual([
      ['44', 'RI'],
      ['48', 'TX'],
      ['55', 'WI'],
    ]);
    states.areas.forEach((state, s) => {
      const [first, end] = data.countyRanges[s]!;
      expect(counties.areas.slice(first, end).every((c) => c.fips.startsWith(state.fips))).toBe(true);
      for (let u = 0; u < HEALTH_UPGRADES.length; u++) {
        for (let b = 0; b < SQFT_BINS.length; b++) {
          for (let h = 0; h < HOUSING_TYPES.length; h++) {
            for (let m = 0; m < MEASURES; m++) {
              let sum = 0;
              for (let c = first; c < end; c++) sum += counties.values[valueAt(c, u, b, h, m)]!;
              expect(states.values[valueAt(s, u, b, h, m)]).toBe(sum);
              // And exactly what the state's cells sum to, directly.
              const direct = cells
                .filter(
                  (cell) =>
                    cell.state === state.state &&
                    cell.upgrade === HEALTH_UPGRADES[u] &&
                    cell.sqft_bin === SQFT_BINS[b] &&
                    cell.housing_type === HOUSING_TYPES[h],
                )
                .reduce((total, cell) => total + cellValue(cell, m), 0);
              expect(sum).toBe(direct);
            }
          }
        }
      }
    });
  });

  it('give rows over bins or housing types that are exactly their parts, and counties exactly their state', () => {
    const { states, counties } = data;
    /** The number a row of (bin or ALL_BINS, housing or ALL_HOUSING) reports before rounding. */
    const row = (values: Float64Array, area: number, u: number, b: number, h: number, m: number) =>
      sumOver(values, upgradeAt(area, u), slotsOf(b, h), m);
    const bins = [...SQFT_BINS.keys(), ALL_BINS];
    const housings = [...HOUSING_TYPES.keys(), ALL_HOUSING];
    for (const sums of [states, counties]) {
      sums.areas.forEach((_, a) => {
        for (let u = 0; u < HEALTH_UPGRADES.length; u++) {
          for (let m = 0; m < MEASURES; m++) {
            for (const b of bins) {
              // Single-family + multi-family = both, for every metric and both estimates.
              const parts = row(sums.values, a, u, b, 0, m) + row(sums.values, a, u, b, 1, m);
              expect(row(sums.values, a, u, b, ALL_HOUSING, m)).toBe(parts);
            }
            for (const h of housings) {
              const parts = SQFT_BINS.reduce((sum, _bin, b) => sum + row(sums.values, a, u, b, h, m), 0);
              expect(row(sums.values, a, u, ALL_BINS, h, m)).toBe(parts);
            }
          }
        }
      });
    }
    states.areas.forEach((_, s) => {
      const [first, end] = data.countyRanges[s]!;
      for (let u = 0; u < HEALTH_UPGRADES.length; u++) {
        for (const b of bins) {
          for (const h of housings) {
            for (let m = 0; m < MEASURES; m++) {
              let sum = 0;
              for (let c = first; c < end; c++) sum += row(counties.values, c, u, b, h, m);
              expect(row(states.values, s, u, b, h, m)).toBe(sum);
            }
          }
        }
      }
    });
    // The multi-family households of a row: none over bins above 1,499 ft², none in Menominee.
    const households = (area: number, b: number, h: number) =>
      sumOver(counties.values, upgradeAt(area, 0), multiFamilySlotsOf(b, h), 0);
    expect(households(0, ALL_BINS, ALL_HOUSING)).toBe(96_000);
    expect(households(0, 0, ALL_HOUSING)).toBe(96_000);
    expect(households(0, 1, ALL_HOUSING)).toBe(0);
    expect(households(0, ALL_BINS, 0)).toBe(0);
    expect(households(4, ALL_BINS, ALL_HOUSING)).toBe(0);
  });

  it('value the deaths at the value of a statistical life, within the dollars’ quantization', () => {
    // Each cell's value is its deaths × VSL on the 2⁻⁸ $ grid: a sum of n cells is within n × 2⁻⁹ $.
    const [deaths, value] = [IMPACT_MEASURES[0]!, IMPACT_MEASURES[1]!];
    const [deathsLow, valueLow] = [LOW_MEASURES[0]!, LOW_MEASURES[1]!];
    for (const sums of [data.states, data.counties]) {
      sums.areas.forEach((area, a) => {
        const cellCount = cells.filter((cell) => cell.county_fips.startsWith(area.fips)).length;
        for (let u = 0; u < HEALTH_UPGRADES.length; u++) {
          const base = upgradeAt(a, u);
          const all = slotsOf(ALL_BINS, ALL_HOUSING);
          for (const [d, v] of [
            [deaths, value],
            [deathsLow, valueLow],
          ] as const) {
            const expected = sumOver(sums.values, base, all, d) * VALUE_OF_STATISTICAL_LIFE.usd;
            const reported = sumOver(sums.values, base, all, v);
            expect(Math.abs(reported - expected)).toBeLessThanOrEqual(cellCount * 2 ** -9 + 1e-6);
            expect(reported).toBeGreaterThan(0);
          }
        }
      });
    }
  });

  it('label the model with the versions, the sources, the two estimates and the value of a death', () => {
    expect(JSON.parse(`{${data.modelJson.toString('utf8')}}`).model).toEqual({
      versions: {
        code: 'c0de00000000',
        model: 'surrogate-7f3a',
        emission_factors: 'ef-1c2d',
        damage_factors: 'df-9e8b',
      },
      sources: [
        { name: 'damage-factors', kind: 'health-damage-factors', version: '2024.1' },
        { name: 'emission-factors', kind: 'rem-emission-factors', version: '2023.2' },
      ],
      estimates: HEALTH_ESTIMATES,
      valuation: { usd_per_death: 11_514_378, dollar_year: 2024 },
      grid_emissions: 'long_run',
      statement: HEALTH_STATEMENT,
    });
    expect(HEALTH_ESTIMATES.central).toMatch(/^Pope et al\. \(2019\).*18 and over/);
    expect(HEALTH_ESTIMATES.low).toMatch(/^Wu et al\. \(2020\), Medicare.*65 and over/);
    expect(VALUE_OF_STATISTICAL_LIFE.dollarYear).toBe(2024);
  });
});

describe('loading health cells', () => {
  const one = healthFixtureCells('long_run')[0]!;

  it('keeps county names whole, accents included, and lists every version the cells disagree on', async () => {
    const data = await load('names', [
      { ...one, county_fips: '35013', state: 'NM', county_name: 'Doña Ana County' },
      {
        ...one,
        county_fips: '35013',
        state: 'NM',
        county_name: 'Doña Ana County',
        heating_fuel: 'propane',
        model_version: 'surrogate-0001',
      },
    ]);
    expect(data.counties.areas).toEqual([
      {
        fips: '35013',
        state: 'NM',
        name: 'Doña Ana County',
        rowStart: Buffer.from(
          '{"state_abbreviation":"NM","county_fips":"013","county_name":"Doña Ana County",',
        ),
      },
    ]);
    expect(JSON.parse(`{${data.modelJson.toString('utf8')}}`).model.versions.model).toBe(
      'surrogate-0001, surrogate-7f3a',
    );
  }, 60_000);

  it('refuses a table placing a county in another state, or outside the contiguous US', async () => {
    await expect(load('wrong-state', [{ ...one, county_fips: '48303', state: 'OK' }])).rejects.toThrow(
      'health_county_impacts: county 48303 has cells of state OK',
    );
    await expect(load('alaska', [{ ...one, county_fips: '02020', state: 'AK' }])).rejects.toThrow(
      'health_county_impacts: county 02020 has cells of state outside the contiguous US',
    );
  }, 60_000);

  it('loads nothing from a snapshot without the table, so the route answers 503', async () => {
    await writeTablesSnapshot(lakeDir, 'empty', [], { publish: false });
    expect(await loadHealthSnapshot(await openSnapshotInChildProcess(localLake(lakeDir), 'empty'))).toEqual({
      data: null,
    });
  });
});
