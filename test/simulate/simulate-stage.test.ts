import { localLake } from '../../data-lake/lake.ts';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEALTH_UPGRADES, type HealthImpactCell } from '../../schemas/health-data.ts';
import { GRID_EMISSIONS, type ClusterStatisticRow } from '../../schemas/rem-data.ts';
import { REM_RESULTS_TOPIC, REM_WORK_UNITS_TOPIC, type RemClusterRow } from '../../schemas/rem-stage.ts';
import { codeVersionOf, simulateCodeHash } from '../../simulate/simulate-code.ts';
import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import { createRemLake, keysOnLog, type RemLake, type RemTestEnv } from '../support/rem-stage/rem-lake.ts';

let lake: RemLake;
beforeEach(async () => {
  lake = await createRemLake();
});
afterEach(() => lake.remove());

async function tables(snapshotId: string, lakeDir = lake.lakeDir) {
  const snapshot = await openSnapshot(localLake(lakeDir), snapshotId);
  return {
    manifest: snapshot.manifest,
    clusters: (await snapshot.rows('rem_clusters')) as unknown as RemClusterRow[],
    statistics: (await snapshot.rows('rem_cluster_statistics')) as unknown as ClusterStatisticRow[],
    health: (await snapshot.rows('health_county_impacts')) as unknown as HealthImpactCell[],
  };
}

describe('the simulate stage in a pipeline run (embedded log, worker threads)', () => {
  it('runs every cluster of the counties once and writes clusters and statistics tables', async () => {
    const run = await lake.run();
    if (run.status !== 'published') throw new Error(`expected a publish, got ${run.status}`);
    const { clusters, statistics } = await tables(run.snapshotId);

    // 2 counties × 4 heating fuels × 5 water-heater choices, each once, sorted by id.
    expect(clusters).toHaveLength(40);
    const ids = clusters.map((c) => c.cluster_id);
    expect(new Set(ids).size).toBe(40);
    expect(ids).toEqual([...ids].sort());
    expect(clusters.find((c) => c.cluster_id === '04013|fuel_oil|-')).toMatchObject({
      supported: false,
      reason: 'implausible_combination',
      samples: 0,
      county_name: 'Maricopa County',
    });
    const gas = clusters.find((c) => c.cluster_id === '44007|natural_gas|-')!;
    expect(gas).toMatchObject({
      supported: true,
      samples: 40,
      code_version: codeVersionOf(simulateCodeHash()),
    });
    expect(gas.model_version).toMatch(/^rem-surrogate-/);
    expect(gas.rates_version).toMatch(/^[0-9a-f]{12}$/);

    // Statistics: 5 baseline lines + 7 upgrades × 5 fuels × 3 scenarios per supported cluster (when every
    // upgrade applies to some home), each line once.
    const supported = clusters.filter((c) => c.supported);
    expect(new Set(statistics.map((r) => r.cluster_id))).toEqual(new Set(supported.map((c) => c.cluster_id)));
    const lines = statistics.map((r) => `${r.cluster_id} ${r.upgrade} ${r.fuel} ${r.scenario}`);
    expect(new Set(lines).size).toBe(lines.length);
    // Stored cluster by cluster in id order, whatever order the results came back from the log in.
    const statisticIds = statistics.map((r) => r.cluster_id);
    expect(statisticIds).toEqual([...statisticIds].sort());
    const ofGas = statistics.filter((r) => r.cluster_id === gas.cluster_id);
    expect(ofGas).toHaveLength(5 + 7 * 15);
    const heatPump = ofGas.find(
      (r) =>
        r.upgrade === 'hvac__heat_pump_seer18_hspf10' && r.fuel === 'natural_gas' && r.scenario === 'delta',
    )!;
    expect(heatPump.energy_unit).toBe('therm');
    expect(heatPump.energy_mean).toBeLessThan(0);
    expect(heatPump.num_samples + heatPump.num_excluded_samples).toBe(40);

    // Health rollup: every household of each county once per upgrade and grid basis, single-family ones
    // (Providence 250,000 × 0.5, Maricopa 1,700,000 × 0.7) and the rest in multi-family buildings, from the
    // drawn-water-heater clusters the county supports.
    const { health } = await tables(run.snapshotId);
    for (const upgrade of HEALTH_UPGRADES) {
      for (const grid of GRID_EMISSIONS) {
        const households = (fips: string, type?: string) =>
          health
            .filter(
              (c) =>
                c.county_fips === fips &&
                c.upgrade === upgrade &&
                c.grid_emissions === grid &&
                (!type || c.housing_type === type),
            )
            .reduce((sum, c) => sum + c.households, 0);
        expect(households('44007')).toBe(250_000);
        expect(households('44007', 'single_family')).toBe(125_000);
        expect(households('04013')).toBe(1_700_000);
        expect(households('04013', 'single_family')).toBe(1_190_000);
      }
    }
    expect(health.some((c) => c.county_fips === '04013' && c.heating_fuel === 'fuel_oil')).toBe(false);
    const allElectricGas = health.filter(
      (c) =>
        c.upgrade === 'combination__all_electric__hvac_seer24_hspf13__weatherization' &&
        c.heating_fuel === 'natural_gas',
    );
    expect(allElectricGas.length).toBeGreaterThan(0);
    for (const c of allElectricGas) {
      expect(c.delta_natural_gas_therm).toBeLessThan(0);
      expect(c.onsite_nox_kg_avoided).toBeGreaterThan(0);
      expect(c.deaths_avoided_onsite).toBeGreaterThan(0);
    }

    // One result per cluster went to the log, one unit per cluster before it.
    expect((await keysOnLog(lake.lakeDir, REM_RESULTS_TOPIC)).sort()).toEqual(ids);
    expect((await keysOnLog(lake.lakeDir, REM_WORK_UNITS_TOPIC)).sort()).toEqual(ids);
  }, 120_000);

  it('reuses the results on the log when the inputs are unchanged, and redoes only the changed state', async () => {
    const first = await lake.run();
    if (first.status !== 'published') throw new Error('expected a publish');
    // Nothing changed: nothing is published, nothing computed.
    expect(await lake.run()).toEqual({ status: 'unchanged', snapshotId: first.snapshotId });
    // A rebuild with no snapshot to compare with (rolled back past the first) computes nothing again.
    await rm(path.join(lake.lakeDir, 'CURRENT'));
    const second = await lake.run();
    if (second.status !== 'published') throw new Error('expected a publish');
    expect(await keysOnLog(lake.lakeDir, REM_RESULTS_TOPIC)).toHaveLength(40);
    const [before, after] = [await tables(first.snapshotId), await tables(second.snapshotId)];
    expect(after.clusters).toEqual(before.clusters);
    expect(after.statistics).toEqual(before.statistics);

    // New Arizona gas prices: the 20 Arizona clusters are new units, Rhode Island's are reused.
    const file = path.join(lake.sourceDir, 'rem.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as {
      rates: { state: string; fuel: string; volumetric_rate: number }[];
    };
    data.rates.find((r) => r.state === 'AZ' && r.fuel === 'natural_gas')!.volumetric_rate = 2.4;
    await writeFile(file, JSON.stringify(data));
    const third = await lake.run();
    if (third.status !== 'published') throw new Error('expected a publish');
    expect(third.rebuild).toMatch(/^changed: source rem-fixture \S+ → \S+; rebuilding /);
    const results = await keysOnLog(lake.lakeDir, REM_RESULTS_TOPIC);
    expect(results).toHaveLength(60);
    expect(results.filter((id) => id.startsWith('04013|'))).toHaveLength(40);
    expect(results.filter((id) => id.startsWith('44007|'))).toHaveLength(20);
    const changed = await tables(third.snapshotId);
    const azGas = (t: typeof changed) =>
      t.statistics.find(
        (r) => r.cluster_id === '04013|natural_gas|-' && r.upgrade === 'baseline' && r.fuel === 'natural_gas',
      )!;
    expect(azGas(changed).energy_mean).toBe(azGas(before).energy_mean);
    expect(azGas(changed).cost_mean).toBeGreaterThan(azGas(before).cost_mean);
    expect(changed.clusters.find((c) => c.cluster_id === '44007|natural_gas|-')).toEqual(
      before.clusters.find((c) => c.cluster_id === '44007|natural_gas|-'),
    );
  }, 180_000);
});

describe('settings in the fingerprints', () => {
  let ri: RemLake;
  beforeEach(async () => {
    ri = await createRemLake({ REM_STATES: 'RI', HEALTH_STATES: 'RI' });
  });
  afterEach(() => ri.remove());

  /** A run with a logger whose messages are kept. */
  async function runLogged(env: RemTestEnv) {
    const messages: string[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void messages.push(JSON.parse(line).msg) },
    );
    const result = await ri.run({ env, logger });
    return { result, messages };
  }

  it('republishes when REM_STATES, HEALTH_STATES or REM_SAMPLES change, computing only the clusters that change', async () => {
    const first = await ri.run();
    if (first.status !== 'published') throw new Error('expected a publish');
    expect(first.rebuild).toMatch(/^first snapshot: building all \d+ tables$/);
    expect(await keysOnLog(ri.lakeDir, REM_RESULTS_TOPIC)).toHaveLength(20);

    // Arizona's health clusters (a drawn water-heater fuel: 4 of its 20) join; Rhode Island's are reused.
    const health = await runLogged({ REM_STATES: 'RI', HEALTH_STATES: 'all' });
    if (health.result.status !== 'published') throw new Error('expected a publish');
    expect(health.messages).toContain(health.result.rebuild);
    expect(health.result.rebuild).toBe(
      'changed: setting HEALTH_STATES RI → all; rebuilding rem_clusters, rem_cluster_statistics, ' +
        'health_county_impacts (changed), rem_counties, rem_energy_rates, rem_emission_factors, ' +
        'rem_grid_emission_factors, health_damage_factors, health_place_damage_factors (read by a changed ' +
        'table); reusing 1 table',
    );
    expect(health.messages).toContain('simulate: 4 of 24 clusters to compute');
    expect(await keysOnLog(ri.lakeDir, REM_RESULTS_TOPIC)).toHaveLength(24);
    const { manifest } = await tables(health.result.snapshotId, ri.lakeDir);
    // The stage's tables name the event-log topics they are computed through.
    expect(manifest.tables.rem_clusters!.inputs).toEqual({
      records: [],
      tables: ['rem_counties', 'rem_energy_rates', 'rem_emission_factors', 'rem_grid_emission_factors'],
      topics: ['rem-work-units', 'rem-cluster-results'],
    });
    expect(manifest.tables.health_county_impacts!.inputs.topics).toEqual(['rem-cluster-results']);
    expect(manifest.tables.rem_clusters!.settings).toEqual({
      REM_STATES: ['RI'],
      HEALTH_STATES: 'all',
      REM_SAMPLES: 40,
    });

    // Every cluster of Arizona: the other 16 are computed.
    const rem = await runLogged({ REM_STATES: 'all', HEALTH_STATES: 'all' });
    expect(rem.result.status).toBe('published');
    expect(rem.messages).toContain('simulate: 16 of 40 clusters to compute');

    // Another sample count: every cluster's inputs changed.
    const samples = await runLogged({ REM_STATES: 'all', HEALTH_STATES: 'all', REM_SAMPLES: '20' });
    if (samples.result.status !== 'published') throw new Error('expected a publish');
    expect(samples.result.rebuild).toMatch(
      /^changed: setting REM_SAMPLES 40 → 20; rebuilding rem_clusters, /,
    );
    expect(samples.messages).toContain('simulate: 40 of 40 clusters to compute');
    const clusters = (await tables(samples.result.snapshotId, ri.lakeDir)).clusters;
    expect(clusters.filter((c) => c.supported).every((c) => c.samples === 20)).toBe(true);

    // The same settings again: nothing to publish.
    const again = await ri.run({ env: { REM_STATES: 'all', HEALTH_STATES: 'all', REM_SAMPLES: '20' } });
    expect(again).toEqual({ status: 'unchanged', snapshotId: samples.result.snapshotId });
  }, 180_000);

  it('takes over the files of the tables it does not rebuild, unchanged', async () => {
    const first = await ri.run();
    const second = await ri.run({ env: { REM_STATES: 'RI', HEALTH_STATES: 'all' } });
    if (first.status !== 'published' || second.status !== 'published') throw new Error('expected publishes');
    // The one table nothing changed reads: the quarantine of the fixture source.
    expect(second.manifest.tables.quarantine).toEqual(first.manifest.tables.quarantine);
    const file = (id: string) => path.join(ri.lakeDir, 'snapshots', id, 'quarantine.parquet');
    expect((await stat(file(second.snapshotId))).ino).toBe((await stat(file(first.snapshotId))).ino);
    expect(second.manifest.tables.rem_clusters!.fingerprint).not.toBe(
      first.manifest.tables.rem_clusters!.fingerprint,
    );
  }, 120_000);
});
