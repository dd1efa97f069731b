import { fit, type Dataset, type FitOptions, type FitResult } from './fit.ts';
import { createMlp } from './mlp.ts';
import { seededRandom } from './prng.ts';
import {
  fitStandardizer,
  standardize,
  transformTargets,
  type Standardizer,
  type SurrogateModel,
  type TargetTransform,
} from './surrogate-model.ts';
import { rowsOf, type TrainingSet } from './training-set.ts';

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
  readonly fit: Omit<FitOptions, 'onEpoch'>;
}

export interface TrainedSurrogate {
  readonly model: SurrogateModel;
  readonly fit: FitResult;
  readonly trainRows: number;
  readonly validationRows: number;
}

function gather(values: Float32Array, width: number, rows: Int32Array): Float32Array {
  const out = new Float32Array(rows.length * width);
  rows.forEach((row, k) => out.set(values.subarray(row * width, (row + 1) * width), k * width));
  return out;
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
  const raw = gather(set.features, set.featureCount, rows);
  const inputs = new Float32Array(raw.length);
  standardize(input, raw, inputs);
  const kwh = gather(set.kwh, set.outputCount, rows);
  const targets = new Float32Array(kwh.length);
  standardize(output, transformTargets(options.targetTransform, kwh), targets);
  const weights = fuelWeights(kwh, raw, set.featureCount, options.outputGates, options.minimumFuelWeight);
  return { rows: rows.length, inputs, targets, weights };
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
  const trainFeatures = gather(set.features, set.featureCount, trainRows);
  const trainKwh = gather(set.kwh, set.outputCount, trainRows);
  const input = fitStandardizer(trainFeatures, trainRows.length, set.featureCount);
  // Target statistics over the elements the loss sees, so gated-off zeros do not skew them.
  const used = fuelWeights(trainKwh, trainFeatures, set.featureCount, options.outputGates, 1);
  const output = fitStandardizer(
    transformTargets(options.targetTransform, trainKwh),
    trainRows.length,
    set.outputCount,
    used,
  );
  const make = (rows: Int32Array) => dataset(set, rows, input, output, options);
  const random = seededRandom(options.seed);
  const mlp = createMlp([set.featureCount, ...options.hidden, set.outputCount], random);
  const result = fit(mlp, make(trainRows), make(validationRows), { ...options.fit, onEpoch }, random);
  return {
    model: { mlp, input, output, targetTransform: options.targetTransform, outputGates: options.outputGates },
    fit: result,
    trainRows: trainRows.length,
    validationRows: validationRows.length,
  };
}
