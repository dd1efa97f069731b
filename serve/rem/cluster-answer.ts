import { clusterId, type ClusterKey, type RemCountyRow } from '../../schemas/rem-data.ts';
import type { Upgrade } from '../../schemas/rem.ts';
import type { ClusterAnswer } from './cluster-statistics-store.ts';
import { countyInputs } from './county-inputs.ts';
import type { RemData } from './rem-data.ts';

/**
 * A cluster's answer for an upgrade: precomputed when the snapshot has the cluster, else computed now by
 * the REM model with the stage's recipe (the same answer). Null when the upgrade applies to none of its
 * homes; 'not_supported' when the county's housing stock makes the fuels implausible.
 */
export async function clusterAnswer(
  data: RemData,
  county: RemCountyRow,
  key: ClusterKey,
  upgrade: Upgrade,
  samples: number,
): Promise<ClusterAnswer | null | 'not_supported'> {
  const supported = data.clusterSupport.get(clusterId(key));
  if (supported === false) return 'not_supported';
  if (supported) return data.statistics.answer(key, upgrade);
  const computed = await data.onDemand.cluster(countyInputs(data, county), key, samples);
  return computed.supported ? (computed.answers.get(upgrade) ?? null) : 'not_supported';
}
