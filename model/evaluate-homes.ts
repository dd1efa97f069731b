import type { HealthBinDelta } from '../schemas/health-data.ts';
import type { ClusterStatisticRow } from '../schemas/rem-data.ts';
import { FUELS, type Climate, type Home, type Upgrade } from '../schemas/rem.ts';
import { FEATURE_NAMES, encodeFeatures } from './features.ts';
import { healthBinDeltas } from './health/bin-deltas.ts';
import type { SampledHome } from './sampler/sample-homes.ts';
import type { Predictor } from './surrogate/held-out.ts';
import { upgradeInto } from './upgrades/apply-upgrade.ts';
import { clusterStatistics, type ClusterIdentity, type UpgradeEnergy } from './savings/cluster-statistics.ts';
import type { FuelPrices } from './savings/fuel-prices.ts';

export interface EvaluateOptions {
  /** The cluster (or request) every line is labelled with. */
  cluster: ClusterIdentity;
  /** Prices and factors of the homes' state (fuelPricesFor). */
  prices: FuelPrices;
  /** Also summarise the fuel changes per floor-area bin for the health rollup (simulate stage clusters). */
  healthBins?: boolean;
}

export interface Evaluation {
  rows: ClusterStatisticRow[];
  /** Sample homes each requested upgrade does not apply to (0 for `baseline`). */
  excluded: Partial<Record<Upgrade, number>>;
  /** Rows run through the surrogate: the baseline homes plus every applicable upgraded home. */
  evaluations: number;
  /** Per upgrade and floor-area bin, the mean fuel changes (when asked for). */
  healthBins: HealthBinDelta[] | null;
}

/**
 * Feature buffers kept from one evaluation for the next. A cluster's batch (~1.5 MB of float32s, outside
 * V8's heap) is an evaluation's largest allocation, and external memory's growth counts toward V8 starting
 * full collections, whose work lands on its helper threads beside the other worker (`npm run bench --
 * simulate` shows the CPU per cluster). Evaluations can overlap (the API's
 * on-demand clusters wait for the surrogate), so each takes a buffer of its own and gives it back; every
 * feature of every row used is written before it is read.
 */
const spareFeatureBuffers: Float32Array[] = [];
const MAX_SPARE_FEATURE_BUFFERS = 4;

function takeFeatureBuffer(length: number): Float32Array {
  const spare = spareFeatureBuffers.pop();
  return spare !== undefined && spare.length >= length ? spare : new Float32Array(length);
}

function giveBackFeatureBuffer(buffer: Float32Array): void {
  if (spareFeatureBuffers.length < MAX_SPARE_FEATURE_BUFFERS) spareFeatureBuffers.push(buffer);
}

/** What the surrogate predicts for sample homes: every home's kWh per fuel, before and after each upgrade. */
export interface PredictedHomes {
  baselineKwh: Float64Array;
  energies: UpgradeEnergy[];
  excluded: Partial<Record<Upgrade, number>>;
  /** Rows run through the surrogate: the baseline homes plus every applicable upgraded home. */
  evaluations: number;
}

/**
 * REM statistics of sample homes for each requested upgrade: every upgrade is applied to every home, the
 * baseline homes and all applicable upgraded homes go through the surrogate in one batch, and the per-home
 * kWh become the statistics lines (cluster-statistics.ts). Used by the simulate stage for each cluster and
 * by the API for a request's own homes, so both answer alike.
 */
export async function evaluateHomes(
  samples: readonly SampledHome[],
  upgrades: readonly Upgrade[],
  surrogate: Predictor,
  { cluster, prices, healthBins = false }: EvaluateOptions,
): Promise<Evaluation> {
  const { baselineKwh, energies, excluded, evaluations } = await predictHomes(samples, upgrades, surrogate);
  return {
    rows: clusterStatistics(cluster, baselineKwh, energies, prices),
    excluded,
    evaluations,
    healthBins: healthBins
      ? healthBinDeltas(
          samples.map((s) => s.home.floorAreaFt2),
          baselineKwh,
          energies,
          prices,
        )
      : null,
  };
}

/**
 * Every upgrade applied to every home, and the baseline homes and all applicable upgraded homes through the
 * surrogate in one batch.
 */
export async function predictHomes(
  samples: readonly SampledHome[],
  upgrades: readonly Upgrade[],
  surrogate: Predictor,
): Promise<PredictedHomes> {
  // Each home is encoded into the batch as soon as it exists, baseline homes first, then each upgrade's
  // applicable homes in order: an upgraded home is garbage right away instead of living until the whole
  // batch is built (holding ~3,000 of them per cluster made the young-generation GC copy and promote them,
  // and that GC work was a fifth of a simulate worker's CPU, on V8's helper threads).
  const width = FEATURE_NAMES.length;
  const upgradedVersions = upgrades.filter((upgrade) => upgrade !== 'baseline').length;
  const features = takeFeatureBuffer(samples.length * (1 + upgradedVersions) * width);
  let rows = 0;
  const encode = (home: Home, climate: Climate): number => {
    encodeFeatures(home, climate, features, rows * width);
    return rows++;
  };
  for (const sample of samples) encode(sample.home, sample.climate);
  // One scratch home holds every upgraded version in turn (encoded before the next is written): no copy
  // per home and upgrade, and its number fields are overwritten in place rather than boxed anew.
  const upgraded: Home | undefined = samples[0] && { ...samples[0].home };
  const plans = upgrades.map((upgrade) => {
    const rowOf = new Int32Array(samples.length); // batch row of each home's upgraded version, −1 when excluded
    samples.forEach((sample, i) => {
      rowOf[i] =
        upgrade !== 'baseline' && upgradeInto(sample.home, upgrade, upgraded!)
          ? encode(upgraded!, sample.climate)
          : -1;
    });
    return { upgrade, rowOf };
  });

  let predicted: Float32Array;
  try {
    predicted = await surrogate.predict(features.subarray(0, rows * width), rows);
  } finally {
    giveBackFeatureBuffer(features);
  }
  if (predicted.length !== rows * FUELS.length)
    throw new Error(
      `the surrogate gave ${predicted.length} values for ${rows} homes × ${FUELS.length} fuels`,
    );
  const kwhOfRows = (rowOf: Int32Array): Float64Array => {
    const out = new Float64Array(rowOf.length * FUELS.length);
    rowOf.forEach((row, i) => {
      if (row < 0) return;
      for (let f = 0; f < FUELS.length; f++) out[i * FUELS.length + f] = predicted[row * FUELS.length + f]!;
    });
    return out;
  };
  const baselineRows = new Int32Array(samples.length);
  for (let i = 0; i < samples.length; i++) baselineRows[i] = i;
  const baselineKwh = kwhOfRows(baselineRows);

  const excluded: Partial<Record<Upgrade, number>> = {};
  const energies: UpgradeEnergy[] = plans.map(({ upgrade, rowOf }) => {
    const applicable = new Uint8Array(rowOf.length);
    let applies = 0;
    for (let i = 0; i < rowOf.length; i++) {
      if (upgrade !== 'baseline' && rowOf[i]! < 0) continue;
      applicable[i] = 1;
      applies++;
    }
    excluded[upgrade] = rowOf.length - applies;
    return { upgrade, applicable, kwh: upgrade === 'baseline' ? baselineKwh : kwhOfRows(rowOf) };
  });
  return { baselineKwh, energies, excluded, evaluations: rows };
}
