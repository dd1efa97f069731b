import { UPGRADES } from '../schemas/rem.ts';
import type { RemClusterResult, RemWorkUnit } from '../schemas/rem-stage.ts';
import { assignStation } from '../model/climate/assign-station.ts';
import { sampleHomes, type SampleResult } from '../model/sampler/sample-homes.ts';
import { samplingCountyOf } from '../model/sampler/sampling-county.ts';
import { evaluateHomes, type Evaluation } from '../model/evaluate-homes.ts';
import type { Predictor } from '../model/surrogate/held-out.ts';
import { encodeStatistics } from './statistics-arrow.ts';

/** What running a cluster needs: its key and county, prices, how many homes and the seed they are drawn with. */
export type ClusterRun = Pick<
  RemWorkUnit,
  'cluster_id' | 'cluster' | 'county' | 'prices' | 'samples' | 'seed'
>;

export type ClusterOutcome =
  | { supported: false; reason: string; message: string }
  | { supported: true; samples: number; evaluation: Evaluation };

/**
 * Simulates one cluster: draws its homes (seeded, so every run draws the same ones), applies every upgrade
 * and evaluates baseline and upgrades through the surrogate. A combination the sampler finds implausible
 * is an outcome too: the cluster is unsupported. The stage and the API's on-demand clusters both run this.
 */
export async function simulateCluster(run: ClusterRun, surrogate: Predictor): Promise<ClusterOutcome> {
  const { cluster, county } = run;
  const drawn = drawClusterHomes(run);
  if (!drawn.supported) return { supported: false, reason: drawn.reason, message: drawn.message };
  const evaluation = await evaluateHomes(drawn.samples, UPGRADES, surrogate, {
    cluster: {
      cluster_id: run.cluster_id,
      county_fips: county.county_fips,
      state: county.state,
      heating_fuel: cluster.heating_fuel,
      water_heater_fuel: cluster.water_heater_fuel,
    },
    prices: run.prices,
    healthBins: cluster.water_heater_fuel === null,
  });
  return { supported: true, samples: drawn.samples.length, evaluation };
}

/** A cluster's sample homes, seeded, so every run draws the same ones (or why the county has none). */
export function drawClusterHomes(
  run: Pick<ClusterRun, 'cluster' | 'county' | 'samples' | 'seed'>,
): SampleResult {
  const { cluster, county } = run;
  // The county table may name the county's station; otherwise it is the nearest of the county's zone.
  const stationId =
    typeof county.station_id === 'string'
      ? county.station_id
      : assignStation({
          climateZone: county.climate_zone,
          latitude: county.latitude,
          longitude: county.longitude,
        }).id;
  return sampleHomes(
    samplingCountyOf({ ...county, station_id: stationId }),
    {
      heatingFuel: cluster.heating_fuel,
      ...(cluster.water_heater_fuel ? { waterHeaterFuel: cluster.water_heater_fuel } : {}),
    },
    run.samples,
    BigInt(run.seed),
  );
}

/** Runs one work unit of the stage and encodes its statistics lines as Arrow for the event log. */
export async function runWorkUnit(unit: RemWorkUnit, surrogate: Predictor): Promise<RemClusterResult> {
  const outcome = await simulateCluster(unit, surrogate);
  const base = { cluster_id: unit.cluster_id, fingerprint: unit.fingerprint, versions: unit.versions };
  if (!outcome.supported) {
    return {
      ...base,
      supported: false,
      reason: outcome.reason,
      message: outcome.message,
      samples: 0,
      excluded: {},
      evaluations: 0,
      statistics: null,
      health_bins: null,
    };
  }
  const { evaluation } = outcome;
  return {
    ...base,
    supported: true,
    reason: null,
    message: null,
    samples: outcome.samples,
    excluded: evaluation.excluded,
    evaluations: evaluation.evaluations,
    statistics: Buffer.from(encodeStatistics(evaluation.rows)).toString('base64'),
    health_bins: evaluation.healthBins,
  };
}
