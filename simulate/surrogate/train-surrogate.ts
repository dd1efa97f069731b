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

/** Loss weight per target element: the fuel's share of the row's total, at least `minimum`. */
export function fuelWeights(kwh: Float32Array, outputs: number, minimum: number): Float32Array {
  const weights = new Float32Array(kwh.length);
  for (let r = 0; r * outputs < kwh.length; r++) {
    let total = 0;
    for (let f = 0; f < outputs; f++) total += kwh[r * outputs + f]!;
    for (let f = 0; f < outputs; f++) {
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
  transform: TargetTransform,
  minimumFuelWeight: number,
): Dataset {
  const raw = gather(set.features, set.featureCount, rows);
  const inputs = new Float32Array(raw.length);
  standardize(input, raw, inputs);
  const kwh = gather(set.kwh, set.outputCount, rows);
  const targets = new Float32Array(kwh.length);
  standardize(output, transformTargets(transform, kwh), targets);
  return {
    rows: rows.length,
    inputs,
    targets,
    weights: fuelWeights(kwh, set.outputCount, minimumFuelWeight),
  };
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
  const input = fitStandardizer(
    gather(set.features, set.featureCount, trainRows),
    trainRows.length,
    set.featureCount,
  );
  const output = fitStandardizer(
    transformTargets(options.targetTransform, gather(set.kwh, set.outputCount, trainRows)),
    trainRows.length,
    set.outputCount,
  );
  const make = (rows: Int32Array) =>
    dataset(set, rows, input, output, options.targetTransform, options.minimumFuelWeight);
  const random = seededRandom(options.seed);
  const mlp = createMlp([set.featureCount, ...options.hidden, set.outputCount], random);
  const result = fit(mlp, make(trainRows), make(validationRows), { ...options.fit, onEpoch }, random);
  return {
    model: { mlp, input, output, targetTransform: options.targetTransform },
    fit: result,
    trainRows: trainRows.length,
    validationRows: validationRows.length,
  };
}
