import {
  clusterId,
  type ClusterKey,
  type ClusterStatisticRow,
  type GridEmissions,
} from '../../schemas/rem-data.ts';
import type { CountyInputs, RemModel } from '../../schemas/rem-model.ts';
import type { Upgrade } from '../../schemas/rem.ts';
import { LRUCache } from 'lru-cache';
import { answerOfLines, type ClusterAnswer } from './cluster-statistics-store.ts';

/**
 * Clusters of a snapshot's counties that the pipeline did not precompute (REM_STATES), or asked on another
 * grid basis than the precompute's, computed by the REM model (off the event loop) when an address asks for
 * one, by the stage's own recipe, so the answer is the one the precompute would have stored (on that basis).
 * The whole cluster (every upgrade) is kept in a small LRU per snapshot: another upgrade, language or
 * spelling of an address in the same county reuses it, which the GET response cache (keyed by URL) would not.
 */

/** A computed cluster: building_not_supported, or one answer per upgrade that applies to some home. */
export type ComputedCluster =
  { supported: false } | { supported: true; answers: ReadonlyMap<Upgrade, ClusterAnswer> };

/** Clusters kept per snapshot, each one slot (1,440 bytes) per upgrade: about 3 MB at most. */
const KEPT_CLUSTERS = 256;

export class OnDemandClusters {
  private readonly computed = new LRUCache<string, ComputedCluster>({ max: KEPT_CLUSTERS });
  /** Clusters being computed: concurrent requests for one cluster share its computation. */
  private readonly running = new Map<string, Promise<ComputedCluster>>();

  constructor(private readonly model: Pick<RemModel, 'cluster'>) {}

  /**
   * The cluster's answers on a grid basis (`inputs` carry its factors), drawn with `samples` homes (the
   * snapshot's REM_SAMPLES). Rejects with the model's ThreadPoolFull when its queue is full (not kept: a
   * later request computes it).
   */
  async cluster(
    inputs: CountyInputs,
    key: ClusterKey,
    samples: number,
    basis: GridEmissions,
  ): Promise<ComputedCluster> {
    const id = `${clusterId(key)}|${basis}`;
    const kept = this.computed.get(id);
    if (kept) return kept;
    let computing = this.running.get(id);
    if (!computing) {
      computing = this.model
        .cluster({ ...inputs, key, samples })
        .then((outcome): ComputedCluster => {
          const computed: ComputedCluster = outcome.supported
            ? { supported: true, answers: answersByUpgrade(outcome.lines) }
            : { supported: false };
          this.computed.set(id, computed);
          return computed;
        })
        .finally(() => this.running.delete(id));
      this.running.set(id, computing);
    }
    return computing;
  }
}

function answersByUpgrade(rows: readonly ClusterStatisticRow[]): Map<Upgrade, ClusterAnswer> {
  const lines = new Map<Upgrade, ClusterStatisticRow[]>();
  for (const row of rows) {
    const upgradeLines = lines.get(row.upgrade);
    if (upgradeLines) upgradeLines.push(row);
    else lines.set(row.upgrade, [row]);
  }
  return new Map([...lines].map(([upgrade, upgradeLines]) => [upgrade, answerOfLines(upgradeLines)]));
}
