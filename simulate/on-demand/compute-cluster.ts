import type { ClusterJob, ClusterOutcome } from '../../schemas/rem-model.ts';
import { fuelPricesFor } from '../savings/fuel-prices.ts';
import { simulateCluster } from '../stage/run-work-unit.ts';
import { clusterRun } from '../stage/work-units.ts';
import type { Predictor } from '../surrogate/held-out.ts';

/**
 * A cluster the snapshot did not precompute, by the stage's own recipe (clusterRun's seed, the same
 * sample count, sampler, prices, evaluateHomes and surrogate), so the answer is the one the precompute
 * would have stored.
 */
export async function computeCluster(
  { county, key, samples, rates, factors }: ClusterJob,
  surrogate: Predictor,
): Promise<ClusterOutcome> {
  const prices = fuelPricesFor(county.state, rates, factors);
  const outcome = await simulateCluster(clusterRun(county, key, prices, samples), surrogate);
  return outcome.supported ? { supported: true, lines: outcome.evaluation.rows } : { supported: false };
}
