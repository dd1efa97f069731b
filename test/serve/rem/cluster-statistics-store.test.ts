import { localLake } from '../../../data-lake/lake.ts';
import { describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import {
  ClusterStatisticsStore,
  SLOT_VALUES,
  answerOfLines,
  loadClusterSupport,
} from '../../../serve/rem/cluster-statistics-store.ts';
import { openSnapshot } from '../../../data-lake/snapshot-reader.ts';
import { clusterId, type ClusterKey } from '../../../schemas/rem-data.ts';
import {
  FIXTURE_STATISTICS,
  GAS_GAS_PROVIDENCE,
  GAS_PROVIDENCE,
  PROPANE_LUBBOCK,
  remFixtureTables,
  writeTablesSnapshot,
} from '../../support/rem-lake-fixture.ts';

let lakeDir: string;
it.beforeAll(async ({ fileTempDir }) => {
  lakeDir = fileTempDir;
});

async function storeOf(id: string, statistics = FIXTURE_STATISTICS) {
  await writeTablesSnapshot(lakeDir, id, remFixtureTables(statistics), { publish: false });
  return ClusterStatisticsStore.load(await openSnapshot(localLake(lakeDir), id));
}

describe('ClusterStatisticsStore', () => {
  it('reads each (cluster, upgrade) slot by position, with its sample counts', async () => {
    const store = await storeOf('complete');
    expect(store.clusterCount).toBe(3);
    const answer = (await store.answer(GAS_PROVIDENCE, 'hvac__heat_pump_seer18_hspf10'))!;
    expect(answer.counts).toEqual({ num_samples: 388, num_excluded_samples: 12 });
    expect(answer.values).toHaveLength(SLOT_VALUES);
    // natural_gas (fuel 1), delta (scenario 2): energy mean, median, p20, p80 first.
    expect([...answer.values.subarray((1 * 3 + 2) * 12, (1 * 3 + 2) * 12 + 4)]).toEqual([
      -2120.123456, -2119.123456, -2118.123456, -2117.123456,
    ]);
    const baseline = (await store.answer(PROPANE_LUBBOCK, 'baseline'))!;
    expect(baseline.values[0]).toBe(6000.123456);
    // A baseline slot's upgrade and delta lines are absent.
    expect(Number.isNaN(baseline.values[12])).toBe(true);
    expect(await store.answer(GAS_GAS_PROVIDENCE, 'hvac__heat_pump_seer18_hspf10')).toBeNull();
    expect(await store.answer({ ...PROPANE_LUBBOCK, water_heater_fuel: 'propane' }, 'baseline')).toBeNull();
  });

  it('keeps a slot once read: its next answer is the same numbers, not read again', async () => {
    const store = await storeOf('kept');
    const first = (await store.answer(GAS_PROVIDENCE, 'hvac__heat_pump_seer18_hspf10'))!;
    const again = (await store.answer(GAS_PROVIDENCE, 'hvac__heat_pump_seer18_hspf10'))!;
    expect(again.values).toBe(first.values);
    expect(again.counts).toEqual(first.counts);
    const other = (await store.answer(GAS_PROVIDENCE, 'weatherization__insulation_air_duct_sealing'))!;
    expect(other.values).not.toBe(first.values);
  });

  it('lays out lines computed for a request exactly as the slots hold them', async () => {
    const store = await storeOf('lines');
    for (const [key, upgrade] of [
      [GAS_PROVIDENCE, 'hvac__heat_pump_seer18_hspf10'],
      [PROPANE_LUBBOCK, 'baseline'],
    ] as const) {
      const lines = FIXTURE_STATISTICS.filter(
        (row) =>
          row.cluster_id.startsWith(`${key.county_fips}|${key.heating_fuel}|`) &&
          row.water_heater_fuel === key.water_heater_fuel &&
          row.upgrade === upgrade,
      );
      expect(answerOfLines(lines)).toEqual(await store.answer(key, upgrade));
    }
  });

  it('holds in memory the total delta medians each slot holds, for the county map', async () => {
    const store = await storeOf('medians');
    for (const [key, upgrade] of [
      [GAS_PROVIDENCE, 'hvac__heat_pump_seer18_hspf10'],
      [GAS_PROVIDENCE, 'weatherization__insulation_air_duct_sealing'],
      [GAS_GAS_PROVIDENCE, 'water_heater__heat_pump_uef3.35'],
    ] as const) {
      const answer = (await store.answer(key, upgrade))!;
      // total (fuel 4), delta (scenario 2): emissions median (measure 1, statistic 1), cost median (2, 1).
      const line = (4 * 3 + 2) * 12;
      expect(store.totalDeltaMedians(store.positionOf(clusterId(key))!, upgrade)).toEqual({
        counts: answer.counts,
        emissions: answer.values[line + 1 * 4 + 1],
        cost: answer.values[line + 2 * 4 + 1],
      });
    }
    // A baseline has no delta: its medians are NaN, as its slot's.
    const baseline = store.totalDeltaMedians(store.positionOf(clusterId(GAS_PROVIDENCE))!, 'baseline')!;
    expect([baseline.counts, Number.isNaN(baseline.cost), Number.isNaN(baseline.emissions)]).toEqual([
      { num_samples: 400, num_excluded_samples: 0 },
      true,
      true,
    ]);
    const at = (key: ClusterKey) => store.positionOf(clusterId(key))!;
    expect(store.totalDeltaMedians(at(GAS_PROVIDENCE), 'hvac__heat_pump_seer18_hspf10')!.cost).toBe(
      -2420.123456 / 4 + 1,
    );
    // A cluster without lines for the upgrade has none; a cluster the store lacks has no position.
    expect(store.totalDeltaMedians(at(GAS_GAS_PROVIDENCE), 'hvac__heat_pump_seer18_hspf10')).toBeNull();
    expect(store.positionOf(clusterId({ ...PROPANE_LUBBOCK, water_heater_fuel: 'propane' }))).toBeUndefined();
  });

  it('reads which clusters were run and which the sampler found implausible', async () => {
    await writeTablesSnapshot(lakeDir, 'support', remFixtureTables(), { publish: false });
    const support = await loadClusterSupport(await openSnapshot(localLake(lakeDir), 'support'));
    expect([...support]).toEqual([
      ['44007|natural_gas|-', true],
      ['44007|natural_gas|natural_gas', true],
      ['48303|fuel_oil|-', false],
      ['48303|propane|-', true],
      ['48303|propane|natural_gas', false],
    ]);
  });

  it('refuses a table with a missing or repeated line, or a line in another energy unit', async () => {
    const missing = FIXTURE_STATISTICS.filter(
      (row, i) => !(row.upgrade === 'hvac__heat_pump_seer18_hspf10' && i % 7 === 0),
    );
    await expect(storeOf('missing', missing)).rejects.toThrow(
      'rem_cluster_statistics: cluster 44007|natural_gas|- has 0 lines in another energy unit and 1 upgrades with missing or repeated lines',
    );
    const repeated = [...FIXTURE_STATISTICS, FIXTURE_STATISTICS[0]!];
    await expect(storeOf('repeated', repeated)).rejects.toThrow(/1 upgrades with missing or repeated lines/);
    const wrongUnit = FIXTURE_STATISTICS.map((row, i) =>
      i === 1 ? { ...row, energy_unit: 'kWh' as const } : row,
    );
    await expect(storeOf('wrong-unit', wrongUnit)).rejects.toThrow(/has 1 lines in another energy unit/);
  });
});
