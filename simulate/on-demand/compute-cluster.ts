import type { ClusterJob, ClusterOutcome } from '../../schemas/rem-model.ts';
import { fuelPricesFor } from '../../model/savings/fuel-prices.ts';
import { simulateCluster } from '../run-work-unit.ts';
import { clusterRun } from '../work-units.ts';
import type { Predictor } from '../../model/surrogate/held-out.ts';

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
