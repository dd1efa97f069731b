import {
  clusterId,
  DEFAULT_GRID_EMISSIONS,
  type ClusterKey,
  type GridEmissions,
  type RemCountyRow,
} from '../../schemas/rem-data.ts';
import type { Upgrade } from '../../schemas/rem.ts';
import type { ClusterAnswer } from './cluster-statistics-store.ts';
import { countyInputs } from './county-inputs.ts';
import type { RemData } from './rem-data.ts';

/**
 * A cluster's answer for an upgrade on a grid basis: precomputed when the snapshot has the cluster and the
 * basis is the default (the precompute's), else computed now by the REM model with the stage's recipe (the
 * same homes, so the same answer but for electricity's emissions). Null when the upgrade applies to none of
 * its homes; 'not_supported' when the county's housing stock makes the fuels implausible.
 */
export async function clusterAnswer(
  data: RemData,
  county: RemCountyRow,
  key: ClusterKey,
  upgrade: Upgrade,
  samples: number,
  basis: GridEmissions,
): Promise<ClusterAnswer | null | 'not_supported'> {
  const supported = data.clusterSupport.get(clusterId(key));
  if (supported === false) return 'not_supported';
  if (supported && basis === DEFAULT_GRID_EMISSIONS) return data.statistics.answer(key, upgrade);
  const computed = await data.onDemand.cluster(countyInputs(data, county, basis), key, samples, basis);
  return computed.supported ? (computed.answers.get(upgrade) ?? null) : 'not_supported';
}
