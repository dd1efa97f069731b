import { fit, type Dataset, type FitOptions, type FitResult } from './fit.ts';
import { savingsError, squaredError, sumOf } from './loss.ts';
import { createMlp } from './mlp.ts';
import { SplitMix64 } from '../random.ts';
import {
  fitStandardizer,
  standardize,
  transformTargets,
  type Standardizer,
  type SurrogateModel,
  type TargetTransform,
} from './surrogate-model.ts';
import { gatherRows, rowsOf, type TrainingSet } from './training-set.ts';

export interface SurrogateTrainingOptions {
  readonly seed: number;
  readonly hidden: readonly number[];
  readonly targetTransform: TargetTransform;
  /**
   * Least loss weight of a fuel in a row. A fuel's weight is its share of the row's total energy, so
   * the loss tracks error in total energy, floored so small loads (a gas range) are still learnt.
   */
  readonly minimumFuelWeight: number;
  /** See SurrogateModel.outputGates; gated-off targets get zero loss weight (they are 0 by construction). */
  readonly outputGates: readonly (number | null)[];
  /**
   * Weight of the savings term: squared relative error of (baseline − upgraded) total energy per
   * upgraded row (0 = off). Errors are relative to |true savings| + savingsFloor × baseline total.
   */
  readonly savingsWeight: number;
  readonly savingsFloor: number;
  readonly fit: Omit<FitOptions, 'onEpoch'>;
}

export interface TrainedSurrogate {
  readonly model: SurrogateModel;
  readonly fit: FitResult;
  readonly trainRows: number;
  readonly validationRows: number;
}

/**
 * Loss weight per target element: the fuel's share of the row's total, at least `minimum`; zero where
 * the output's gate feature is 0 (the model outputs exactly 0 there whatever the network says).
 */
export function fuelWeights(
  kwh: Float32Array,
  features: Float32Array,
  featureCount: number,
  outputGates: readonly (number | null)[],
  minimum: number,
): Float32Array {
  const outputs = outputGates.length;
  const weights = new Float32Array(kwh.length);
  for (let r = 0; r * outputs < kwh.length; r++) {
    let total = 0;
    for (let f = 0; f < outputs; f++) total += kwh[r * outputs + f]!;
    for (let f = 0; f < outputs; f++) {
      const gate = outputGates[f];
      if (gate !== null && gate !== undefined && features[r * featureCount + gate] === 0) continue;
      const share = total > 0 ? kwh[r * outputs + f]! / total : 0;
      weights[r * outputs + f] = Math.max(minimum, share);
    }
  }
  return weights;
}

function dataset(
  set: TrainingSet,
  rows: Int32Array,
  input: Standardizer,
  output: Standardizer,
  options: SurrogateTrainingOptions,
): Dataset {
  const outputs = set.outputCount;
  const raw = gatherRows(set.features, set.featureCount, rows);
  const inputs = new Float32Array(raw.length);
  standardize(input, raw, inputs);
  const kwh = gatherRows(set.kwh, outputs, rows);
  const targets = new Float32Array(kwh.length);
  standardize(output, transformTargets(options.targetTransform, kwh), targets);
  const weights = fuelWeights(kwh, raw, set.featureCount, options.outputGates, options.minimumFuelWeight);
  const perFuel = squaredError(targets, weights, outputs);

  // A home's rows are contiguous, baseline first (buildTrainingSet's order): one group per home.
  const groupStarts: number[] = [];
  const baselineOf = new Int32Array(rows.length);
  rows.forEach((row, k) => {
    if (k === 0 || set.home[row] !== set.home[rows[k - 1]!]) groupStarts.push(k);
    baselineOf[k] = set.upgrade[row] === 0 ? -1 : groupStarts[groupStarts.length - 1]!;
  });
  const objective =
    options.savingsWeight > 0
      ? sumOf(
          perFuel,
          savingsError({
            baselineOf,
            totals: Float32Array.from({ length: rows.length }, (_, k) =>
              kwh.subarray(k * outputs, (k + 1) * outputs).reduce((a, b) => a + b, 0),
            ),
            // With a minimum of 1 every open gate weighs exactly 1: the 0/1 gate mask.
            gates: fuelWeights(kwh, raw, set.featureCount, options.outputGates, 1),
            output,
            weight: options.savingsWeight,
            floor: options.savingsFloor,
          }),
        )
      : perFuel;
  return { rows: rows.length, inputs, objective, groupStarts: Int32Array.from(groupStarts) };
}

/**
 * Fits the surrogate on the set's train rows with early stopping on its validation rows. Standardisation
 * statistics come from the train rows only, so nothing about held-out homes leaks into the model.
 */
export function trainSurrogate(
  set: TrainingSet,
  options: SurrogateTrainingOptions,
  onEpoch?: FitOptions['onEpoch'],
): TrainedSurrogate {
  const trainRows = rowsOf(set, 'train');
  const validationRows = rowsOf(set, 'validation');
  if (trainRows.length === 0 || validationRows.length === 0) {
    throw new Error('the training set needs rows in both the train and validation splits');
  }
  if (options.outputGates.length !== set.outputCount) {
    throw new Error(`outputGates must have one entry per output (${set.outputCount})`);
  }
  const trainFeatures = gatherRows(set.features, set.featureCount, trainRows);
  const trainKwh = gatherRows(set.kwh, set.outputCount, trainRows);
  const input = fitStandardizer(trainFeatures, trainRows.length, set.featureCount);
  // Target statistics over the elements the loss sees, so gated-off zeros do not skew them.
  const used = fuelWeights(trainKwh, trainFeatures, set.featureCount, options.outputGates, 1); // 0/1 mask
  const output = fitStandardizer(
    transformTargets(options.targetTransform, trainKwh),
    trainRows.length,
    set.outputCount,
    used,
  );
  const make = (rows: Int32Array) => dataset(set, rows, input, output, options);
  const random = new SplitMix64(options.seed);
  const mlp = createMlp([set.featureCount, ...options.hidden, set.outputCount], random);
  const result = fit(mlp, make(trainRows), make(validationRows), { ...options.fit, onEpoch }, random);
  return {
    model: { mlp, input, output, targetTransform: options.targetTransform, outputGates: options.outputGates },
    fit: result,
    trainRows: trainRows.length,
    validationRows: validationRows.length,
  };
}
