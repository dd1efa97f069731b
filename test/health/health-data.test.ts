import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_METRICS, HEALTH_METRIC_NAMES } from '../../schemas/health-api.ts';
import { HEALTH_UPGRADES, SQFT_BINS, type HealthImpactCell } from '../../schemas/health-data.ts';
import {
  ALL_BINS,
  MEASURES,
  loadHealthSnapshot,
  valueAt,
  type HealthData,
} from '../../serve/health/health-data.ts';
import { openSnapshotInChildProcess } from '../../serve/snapshot/child-process-snapshot-reader.ts';
import {
  HEALTH_FIXTURE_COUNTIES,
  HEALTH_FIXTURE_SOURCES,
  healthFixtureCells,
  healthFixtureTable,
} from '../support/health-lake-fixture.ts';
import { writeTablesSnapshot } from '../support/serve-lake-fixture.ts';

let lakeDir: string;
beforeAll(async () => {
  lakeDir = await mkdtemp(path.join(tmpdir(), 'health-data-'));
});
afterAll(() => rm(lakeDir, { recursive: true, force: true }));

/** Loads cells through a real lake snapshot and the serving process's child reader. */
async function load(id: string, cells: HealthImpactCell[]): Promise<HealthData> {
  await writeTablesSnapshot(lakeDir, id, [healthFixtureTable(cells)], {
    publish: false,
    sources: HEALTH_FIXTURE_SOURCES,
  });
  const { data } = await loadHealthSnapshot(await openSnapshotInChildProcess(lakeDir, id));
  return data!;
}

const cellValue = (cell: HealthImpactCell, measure: number) =>
  measure === 0 ? cell.households : cell[HEALTH_METRICS[HEALTH_METRIC_NAMES[measure - 1]!].column];

describe('the health sums loaded from a snapshot', () => {
  const cells = healthFixtureCells();
  let data: HealthData;
  beforeAll(async () => {
    data = await load('sums', cells);
  }, 60_000);

  it('hold, per county, upgrade and bin, exactly the sum of the cells over heating fuels', () => {
    expect(data.counties.areas.map((a) => a.fips)).toEqual(HEALTH_FIXTURE_COUNTIES.map((c) => c.county_fips));
    data.counties.areas.forEach((county, c) => {
      HEALTH_UPGRADES.forEach((upgrade, u) => {
        SQFT_BINS.forEach((bin, b) => {
          const matching = cells.filter(
            (cell) => cell.county_fips === county.fips && cell.upgrade === upgrade && cell.sqft_bin === bin,
          );
          expect(matching).toHaveLength(4);
          for (let m = 0; m < MEASURES; m++) {
            const expected = matching.reduce((sum, cell) => sum + cellValue(cell, m), 0);
            expect(data.counties.values[valueAt(c, u, b, m)]).toBe(expected);
          }
        });
      });
    });
  });

  it('add up exactly, before any rounding: bins to their total, counties to their state', () => {
    const { states, counties } = data;
    expect(states.areas.map((a) => [a.fips, a.state])).toEqual([
      ['44', 'RI'],
      ['48', 'TX'],
      ['55', 'WI'],
    ]);
    for (const sums of [states, counties]) {
      sums.areas.forEach((_, a) => {
        HEALTH_UPGRADES.forEach((_upgrade, u) => {
          for (let m = 0; m < MEASURES; m++) {
            const bins = SQFT_BINS.reduce((sum, _bin, b) => sum + sums.values[valueAt(a, u, b, m)]!, 0);
            expect(sums.values[valueAt(a, u, ALL_BINS, m)]).toBe(bins);
          }
        });
      });
    }
    states.areas.forEach((state, s) => {
      const [first, end] = data.countyRanges[s]!;
      expect(counties.areas.slice(first, end).every((c) => c.fips.startsWith(state.fips))).toBe(true);
      for (let u = 0; u < HEALTH_UPGRADES.length; u++) {
        for (let b = 0; b <= ALL_BINS; b++) {
          for (let m = 0; m < MEASURES; m++) {
            let sum = 0;
            for (let c = first; c < end; c++) sum += counties.values[valueAt(c, u, b, m)]!;
            expect(states.values[valueAt(s, u, b, m)]).toBe(sum);
          }
        }
      }
    });
  });

  it('label the model with the versions the cells carry and the sources the table was built from', () => {
    expect(JSON.parse(`{${data.modelJson.toString('utf8')}}`).model).toMatchObject({
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
    });
  });
});

describe('loading health cells', () => {
  const one = healthFixtureCells()[0]!;

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
    expect(await loadHealthSnapshot(await openSnapshotInChildProcess(lakeDir, 'empty'))).toEqual({
      data: null,
    });
  });
});
