/**
 * Weighted mean squared error over a batch: Σ w·(p − t)² / rows, with per-element weights so one array
 * carries both row weights (e.g. upweighted baselines) and masks (weight 0 = ignore). Writes
 * dLoss/dPrediction into `gradient` and returns the loss.
 */
export function weightedSquaredError(
  predictions: Float32Array,
  targets: Float32Array,
  weights: Float32Array | undefined,
  rows: number,
  outputs: number,
  gradient: Float32Array,
): number {
  if (rows === 0) return 0;
  const n = rows * outputs;
  let loss = 0;
  for (let k = 0; k < n; k++) {
    const w = weights ? weights[k]! : 1;
    const error = predictions[k]! - targets[k]!;
    loss += w * error * error;
    gradient[k] = (2 * w * error) / rows;
  }
  return loss / rows;
}
