import { UPGRADES } from '../../schemas/rem.ts';
import type { RemClusterResult, RemWorkUnit } from '../../schemas/rem-stage.ts';
import { assignStation } from '../climate/assign-station.ts';
import { sampleHomes } from '../sampler/sample-homes.ts';
import { samplingCountyOf } from '../sampler/sampling-county.ts';
import { evaluateHomes } from '../savings/evaluate-homes.ts';
import type { Predictor } from '../surrogate/held-out.ts';
import { encodeStatistics } from './statistics-arrow.ts';

/**
 * Runs one cluster: draws its homes (seeded, so every run draws the same ones), applies every upgrade,
 * evaluates baseline and upgrades through the surrogate and encodes the statistics lines as Arrow.
 * A combination the sampler finds implausible is a result too: the cluster is unsupported.
 */
export async function runWorkUnit(unit: RemWorkUnit, surrogate: Predictor): Promise<RemClusterResult> {
  const { cluster, county } = unit;
  // The county table may name the county's station; otherwise it is the nearest of the county's zone.
  const stationId =
    typeof county.station_id === 'string'
      ? county.station_id
      : assignStation({
          climateZone: county.climate_zone,
          latitude: county.latitude,
          longitude: county.longitude,
        }).id;
  const drawn = sampleHomes(
    samplingCountyOf({ ...county, station_id: stationId }),
    {
      heatingFuel: cluster.heating_fuel,
      ...(cluster.water_heater_fuel ? { waterHeaterFuel: cluster.water_heater_fuel } : {}),
    },
    unit.samples,
    BigInt(unit.seed),
  );
  const base = { cluster_id: unit.cluster_id, fingerprint: unit.fingerprint, versions: unit.versions };
  if (!drawn.supported) {
    return {
      ...base,
      supported: false,
      reason: drawn.reason,
      message: drawn.message,
      samples: 0,
      excluded: {},
      evaluations: 0,
      statistics: null,
    };
  }
  const evaluation = await evaluateHomes(drawn.samples, UPGRADES, surrogate, {
    cluster: {
      cluster_id: unit.cluster_id,
      county_fips: county.county_fips,
      state: county.state,
      heating_fuel: cluster.heating_fuel,
      water_heater_fuel: cluster.water_heater_fuel,
    },
    prices: unit.prices,
  });
  return {
    ...base,
    supported: true,
    reason: null,
    message: null,
    samples: drawn.samples.length,
    excluded: evaluation.excluded,
    evaluations: evaluation.evaluations,
    statistics: Buffer.from(encodeStatistics(evaluation.rows)).toString('base64'),
  };
}
