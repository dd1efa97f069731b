import { localLake } from '../../../data-lake/lake.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ThreadPoolFull } from '../../../lib/thread-pool.ts';
import {
  RESULT_FUELS,
  SCENARIOS,
  type ClusterKey,
  type EmissionFactor,
  type EnergyRate,
  type GridEmissionFactor,
  type GridEmissions,
  type RemCountyRow,
} from '../../../schemas/rem-data.ts';
import { UPGRADES } from '../../../schemas/rem.ts';
import {
  ClusterStatisticsStore,
  LINE_VALUES,
  loadClusterSupport,
} from '../../../serve/rem/cluster-statistics-store.ts';
import { OnDemandClusters } from '../../../serve/rem/on-demand-clusters.ts';
import { countyInputs } from '../../../serve/rem/county-inputs.ts';
import { ratesAndFactorsJson, remModelInfo, snapshotSamples } from '../../../serve/rem/rem-data.ts';
import { encodedFragment } from '../../../serve/http/json-bytes.ts';
import { savingsBody } from '../../../serve/rem/savings-body.ts';
import { clusterKeysOf } from '../../../simulate/work-units.ts';
import { openSnapshot } from '../../../data-lake/snapshot-reader.ts';
import { specRemModel } from '../../support/rem-model.ts';
import { createRemLake, type RemLake } from '../../support/rem-stage/rem-lake.ts';

const PROVIDENCE = '44007';
const SAMPLES = 40; // REM_TEST_ENV's REM_SAMPLES, which both lakes ran with

/** The snapshot a lake's pipeline run publishes, opened. */
async function runLake(lake: RemLake) {
  const run = await lake.run();
  if (run.status !== 'published') throw new Error(`expected a publish, got ${run.status}`);
  return openSnapshot(localLake(lake.lakeDir), run.snapshotId);
}

const model = specRemModel();
const providenceInputs = (basis: GridEmissions = 'long_run') =>
  countyInputs(onDemand, onDemand.providence, basis);

let precomputedLake: RemLake;
let otherStateLake: RemLake;
let snapshotHomes: number | null;
let precomputed: { support: ReadonlyMap<string, boolean>; store: ClusterStatisticsStore };
let onDemand: {
  support: ReadonlyMap<string, boolean>;
  clusters: OnDemandClusters;
  providence: RemCountyRow;
  ratesAndFactors: string;
  rates: EnergyRate[];
  factors: EmissionFactor[];
  gridFactors: GridEmissionFactor[];
};

beforeAll(async () => {
  // The same fixture inputs twice: one lake precomputes Rhode Island, the other only Arizona.
  precomputedLake = await createRemLake({ REM_STATES: 'RI', HEALTH_STATES: 'RI' });
  otherStateLake = await createRemLake({ REM_STATES: 'AZ', HEALTH_STATES: 'AZ' });
  const withRhodeIsland = await runLake(precomputedLake);
  precomputed = {
    support: await loadClusterSupport(withRhodeIsland),
    store: await ClusterStatisticsStore.load(withRhodeIsland),
  };
  const withoutRhodeIsland = await runLake(otherStateLake);
  const counties = await withoutRhodeIsland.rows<RemCountyRow>('rem_counties');
  const rates = await withoutRhodeIsland.rows<EnergyRate>('rem_energy_rates');
  const factors = await withoutRhodeIsland.rows<EmissionFactor>('rem_emission_factors');
  const gridFactors = await withoutRhodeIsland.rows<GridEmissionFactor>('rem_grid_emission_factors');
  snapshotHomes = snapshotSamples(withoutRhodeIsland);
  const providence = counties.find((c) => c.county_fips === PROVIDENCE)!;
  onDemand = {
    support: await loadClusterSupport(withoutRhodeIsland),
    clusters: new OnDemandClusters(model),
    providence,
    ratesAndFactors: ratesAndFactorsJson(providence, 'long_run', rates, factors, gridFactors),
    rates,
    factors,
    gridFactors,
  };
}, 240_000);
afterAll(async () => {
  await model.close();
  await precomputedLake?.remove();
  await otherStateLake?.remove();
});

const bodyOf = (answer: Parameters<typeof savingsBody>[0], ratesAndFactors: string) =>
  savingsBody(answer, {
    ratesAndFactorsJson: encodedFragment(ratesAndFactors),
    modelJson: encodedFragment(`"model":${JSON.stringify(remModelInfo(model.versions))}`),
    estimateType: 'county_level',
  }).toString('utf8');

describe('a cluster computed on demand', () => {
  it('draws as many homes as the snapshot was built with (its manifest), whatever the server is set to', () => {
    expect(snapshotHomes).toBe(SAMPLES);
  });

  it('is byte for byte the precomputed cluster: support, every upgrade, every number', async () => {
    const keys: ClusterKey[] = clusterKeysOf(PROVIDENCE);
    // Rhode Island is precomputed in one lake only.
    expect(
      keys.every((key) =>
        precomputed.support.has(`${key.county_fips}|${key.heating_fuel}|${key.water_heater_fuel ?? '-'}`),
      ),
    ).toBe(true);
    expect([...onDemand.support.keys()].some((id) => id.startsWith(`${PROVIDENCE}|`))).toBe(false);

    let compared = 0;
    for (const key of keys) {
      const id = `${key.county_fips}|${key.heating_fuel}|${key.water_heater_fuel ?? '-'}`;
      const computed = await onDemand.clusters.cluster(providenceInputs(), key, SAMPLES, 'long_run');
      expect(computed.supported, id).toBe(precomputed.support.get(id));
      if (!computed.supported) continue;
      for (const upgrade of UPGRADES) {
        const stored = await precomputed.store.answer(key, upgrade);
        const fresh = computed.answers.get(upgrade) ?? null;
        expect(fresh === null, `${id} ${upgrade}`).toBe(stored === null);
        if (stored === null || fresh === null) continue;
        expect(fresh.counts).toEqual(stored.counts);
        expect(
          Buffer.from(fresh.values.buffer).equals(Buffer.from(stored.values.buffer)),
          `${id} ${upgrade}`,
        ).toBe(true);
        expect(bodyOf(fresh, onDemand.ratesAndFactors)).toBe(bodyOf(stored, onDemand.ratesAndFactors));
        compared++;
      }
    }
    // Most of the county's 20 clusters are plausible, each with most of the upgrades.
    expect(compared).toBeGreaterThan(50);
  }, 120_000);

  it('is computed once: concurrent requests share the computation, a repeat the kept cluster', async () => {
    const key: ClusterKey = { county_fips: PROVIDENCE, heating_fuel: 'propane', water_heater_fuel: null };
    let computations = 0;
    const clusters = new OnDemandClusters({
      cluster: (job) => {
        computations++;
        return model.cluster(job);
      },
    });
    const [a, b] = await Promise.all([
      clusters.cluster(providenceInputs(), key, SAMPLES, 'long_run'),
      clusters.cluster(providenceInputs(), key, SAMPLES, 'long_run'),
    ]);
    expect(a).toBe(b);
    expect(await clusters.cluster(providenceInputs(), key, SAMPLES, 'long_run')).toBe(a);
    expect(computations).toBe(1);
    expect(a.supported && a.answers.get('baseline')?.counts).toEqual({
      num_samples: SAMPLES,
      num_excluded_samples: 0,
    });
  }, 60_000);

  it("on today's grid, is the same homes: energy and cost alike, only electricity's emissions differ", async () => {
    const key: ClusterKey = { county_fips: PROVIDENCE, heating_fuel: 'natural_gas', water_heater_fuel: null };
    const longRun = await onDemand.clusters.cluster(providenceInputs(), key, SAMPLES, 'long_run');
    const today = await onDemand.clusters.cluster(
      providenceInputs('current_average'),
      key,
      SAMPLES,
      'current_average',
    );
    if (!longRun.supported || !today.supported) throw new Error('the gas cluster is supported');
    const kgPerKwh = (basis: GridEmissions) =>
      onDemand.gridFactors.find(
        (f) => f.grid_region === 'ISONE' && f.grid_emissions === basis && f.pollutant === 'co2e',
      )!.value;
    // The fixture's ISONE long-run rate (0.15 kg/kWh) against Rhode Island's average one (0.25).
    expect([kgPerKwh('long_run'), kgPerKwh('current_average')]).toEqual([0.15, 0.25]);
    const a = longRun.answers.get('hvac__heat_pump_seer18_hspf10')!.values;
    const b = today.answers.get('hvac__heat_pump_seer18_hspf10')!.values;
    RESULT_FUELS.forEach((fuel, f) =>
      SCENARIOS.forEach((scenario, s) => {
        const at = (f * SCENARIOS.length + s) * LINE_VALUES;
        // Energy (4 statistics), emissions (4), cost (4).
        expect(b.subarray(at, at + 4), `${fuel} ${scenario} energy`).toEqual(a.subarray(at, at + 4));
        expect(b.subarray(at + 8, at + 12), `${fuel} ${scenario} cost`).toEqual(a.subarray(at + 8, at + 12));
        const emissions = (values: Float64Array) => values[at + 4]!;
        if (fuel === 'natural_gas') expect(emissions(b)).toBe(emissions(a));
        if (fuel === 'electricity') expect(emissions(b)).toBeCloseTo((emissions(a) * 0.25) / 0.15, 2);
      }),
    );
  }, 60_000);

  it('is not kept when the model refuses it (a full queue): the next request computes it', async () => {
    const key: ClusterKey = { county_fips: PROVIDENCE, heating_fuel: 'fuel_oil', water_heater_fuel: null };
    let refuse = true;
    const clusters = new OnDemandClusters({
      cluster: (job) => (refuse ? Promise.reject(new ThreadPoolFull(16)) : model.cluster(job)),
    });
    await expect(clusters.cluster(providenceInputs(), key, SAMPLES, 'long_run')).rejects.toBeInstanceOf(
      ThreadPoolFull,
    );
    refuse = false;
    const computed = await clusters.cluster(providenceInputs(), key, SAMPLES, 'long_run');
    expect(computed.supported).toBe(precomputed.support.get(`${PROVIDENCE}|fuel_oil|-`));
  }, 60_000);
});
