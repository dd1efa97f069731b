import {
  clusterId,
  type ClusterKey,
  type ClusterStatisticRow,
  type EmissionFactor,
  type EnergyRate,
} from '../../schemas/rem-data.ts';
import { UPGRADES, type Upgrade } from '../../schemas/rem.ts';
import { fuelPricesFor } from '../../simulate/savings/fuel-prices.ts';
import { simulateCluster } from '../../simulate/stage/run-work-unit.ts';
import { clusterRun } from '../../simulate/stage/work-units.ts';
import type { Predictor } from '../../simulate/surrogate/held-out.ts';
import type { RemCountyRow } from '../../schemas/tables/rem.ts';
import { LruCache } from '../http/lru-cache.ts';
import { SLOT_VALUES, answerOfLines, type ClusterAnswer } from './cluster-statistics-store.ts';

/**
 * Clusters of a snapshot's counties that the pipeline did not precompute (REM_STATES), computed when an
 * address asks for one: the stage's own recipe (clusterRun's seed, the same sample count, sampler, prices,
 * evaluateHomes and surrogate), so the answer is the one the precompute would have stored. The whole
 * cluster (every upgrade) is kept in a small LRU per snapshot: another upgrade, language or spelling of an
 * address in the same county reuses it, which the GET response cache (keyed by URL) would not.
 */

/** A computed cluster: building_not_supported, or one answer per upgrade that applies to some home. */
export type ComputedCluster =
  { supported: false } | { supported: true; answers: ReadonlyMap<Upgrade, ClusterAnswer> };

/** Clusters kept per snapshot, each one slot (1,440 bytes) per upgrade. */
const KEPT_CLUSTERS = 256;
const CLUSTER_BYTES = UPGRADES.length * SLOT_VALUES * Float64Array.BYTES_PER_ELEMENT;

export class OnDemandClusters {
  private readonly computed = new LruCache<ComputedCluster>({
    maxEntries: KEPT_CLUSTERS,
    maxBytes: KEPT_CLUSTERS * CLUSTER_BYTES,
  });
  /** Clusters being computed: concurrent requests for one cluster share its computation. */
  private readonly running = new Map<string, Promise<ComputedCluster>>();

  constructor(
    private readonly rates: readonly EnergyRate[],
    private readonly factors: readonly EmissionFactor[],
  ) {}

  /** The cluster's answers, drawn with `samples` homes per cluster (the pipeline's REM_SAMPLES). */
  async cluster(
    county: RemCountyRow,
    key: ClusterKey,
    samples: number,
    surrogate: () => Promise<Predictor>,
  ): Promise<ComputedCluster> {
    const id = clusterId(key);
    const kept = this.computed.get(id);
    if (kept) return kept;
    let computing = this.running.get(id);
    if (!computing) {
      const prices = fuelPricesFor(county.state, this.rates, this.factors);
      computing = surrogate()
        .then((predictor) => simulateCluster(clusterRun(county, key, prices, samples), predictor))
        .then((outcome): ComputedCluster => {
          if (!outcome.supported) return { supported: false };
          const lines = new Map<Upgrade, ClusterStatisticRow[]>();
          for (const row of outcome.evaluation.rows) {
            const upgradeLines = lines.get(row.upgrade);
            if (upgradeLines) upgradeLines.push(row);
            else lines.set(row.upgrade, [row]);
          }
          const answers = new Map([...lines].map(([upgrade, rows]) => [upgrade, answerOfLines(rows)]));
          return { supported: true, answers };
        })
        .then((computed) => {
          this.computed.set(id, computed, CLUSTER_BYTES);
          return computed;
        })
        .finally(() => this.running.delete(id));
      this.running.set(id, computing);
    }
    return computing;
  }
}
