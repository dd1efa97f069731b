import type { Standardizer } from './surrogate-model.ts';

/**
 * A training objective over a batch: given the network's outputs for `count` dataset rows (their row
 * numbers in `rows`, in batch order), returns the batch's summed loss and writes dLoss/dOutput into
 * `gradient` (count × outputs). Summed, not averaged, so the trainer decides the normalisation.
 */
export type Objective = (
  predictions: Float32Array,
  rows: Int32Array,
  count: number,
  gradient: Float32Array,
) => number;

/**
 * Weighted squared error Σ w·(p − t)² against row-major targets, with per-element weights so one array
 * carries both row weights and masks (weight 0 = ignore).
 */
export function squaredError(
  targets: Float32Array,
  weights: Float32Array | undefined,
  outputs: number,
): Objective {
  return (predictions, rows, count, gradient) => {
    let loss = 0;
    for (let b = 0; b < count; b++) {
      const row = rows[b]!;
      for (let f = 0; f < outputs; f++) {
        const k = row * outputs + f;
        const w = weights ? weights[k]! : 1;
        const error = predictions[b * outputs + f]! - targets[k]!;
        loss += w * error * error;
        gradient[b * outputs + f] = 2 * w * error;
      }
    }
    return loss;
  };
}

/** What the savings objective needs to know about each dataset row. */
export interface SavingsRows {
  /** Row number of the same home's baseline, or −1 for a baseline row. */
  readonly baselineOf: Int32Array;
  /** Simulated total kWh of the row (all outputs). */
  readonly totals: Float32Array;
  /** rows × outputs: 1 where the output can be non-zero (its gate is open), else 0. */
  readonly gates: Float32Array;
  /** How network outputs map back to log1p(kWh): t = output / scale + mean. */
  readonly output: Standardizer;
  /** Weight of the savings term relative to the per-fuel term. */
  readonly weight: number;
  /** Savings errors are relative to |true savings| + floor × baseline total, so near-zero savings stay finite. */
  readonly floor: number;
}

/**
 * Squared relative error of the predicted change in total energy between each upgraded row and its
 * home's baseline row (which must be in the same batch). Training on this directly is what makes
 * small savings (a water heater, weatherization) come out right, not just each total.
 */
export function savingsError(data: SavingsRows): Objective {
  const { baselineOf, totals, gates, output, weight, floor } = data;
  const outputs = output.mean.length;
  const positionOf = new Map<number, number>();
  const kwh = new Float64Array(outputs);
  // Predicted total kWh of batch position b, and d(total)/d(output f) into slope[b * outputs + f].
  const predictTotal = (predictions: Float32Array, row: number, b: number, slope: Float64Array): number => {
    let total = 0;
    for (let f = 0; f < outputs; f++) {
      const gate = gates[row * outputs + f]!;
      const e = Math.exp(predictions[b * outputs + f]! / output.scale[f]! + output.mean[f]!);
      kwh[f] = gate * (e - 1);
      slope[b * outputs + f] = e > 1 ? (gate * e) / output.scale[f]! : 0; // clipped at 0 kWh below e = 1
      total += kwh[f]! > 0 ? kwh[f]! : 0;
    }
    return total;
  };
  let slope = new Float64Array(0);
  let predictedTotals = new Float64Array(0);
  return (predictions, rows, count, gradient) => {
    if (slope.length < count * outputs) {
      slope = new Float64Array(count * outputs);
      predictedTotals = new Float64Array(count);
    }
    positionOf.clear();
    for (let b = 0; b < count; b++) {
      positionOf.set(rows[b]!, b);
      predictedTotals[b] = predictTotal(predictions, rows[b]!, b, slope);
    }
    gradient.fill(0, 0, count * outputs);
    let loss = 0;
    for (let b = 0; b < count; b++) {
      const row = rows[b]!;
      const base = baselineOf[row]!;
      if (base < 0) continue;
      const bb = positionOf.get(base);
      if (bb === undefined) throw new Error(`row ${row}'s baseline row ${base} is not in the same batch`);
      const trueSavings = totals[base]! - totals[row]!;
      const scale = Math.abs(trueSavings) + floor * totals[base]!;
      const error = (predictedTotals[bb]! - predictedTotals[b]! - trueSavings) / scale;
      loss += weight * error * error;
      const g = (2 * weight * error) / scale;
      for (let f = 0; f < outputs; f++) {
        gradient[bb * outputs + f] = gradient[bb * outputs + f]! + g * slope[bb * outputs + f]!;
        gradient[b * outputs + f] = gradient[b * outputs + f]! - g * slope[b * outputs + f]!;
      }
    }
    return loss;
  };
}

/** The sum of objectives (their gradients add); predictions hold exactly count × outputs values. */
export function sumOf(first: Objective, ...rest: Objective[]): Objective {
  let scratch = new Float32Array(0);
  return (predictions, rows, count, gradient) => {
    let loss = first(predictions, rows, count, gradient);
    const n = predictions.length;
    if (scratch.length < n) scratch = new Float32Array(n);
    for (const objective of rest) {
      loss += objective(predictions, rows, count, scratch);
      for (let k = 0; k < n; k++) gradient[k] = gradient[k]! + scratch[k]!;
    }
    return loss;
  };
}
