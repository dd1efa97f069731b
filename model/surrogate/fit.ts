import { adamStep, createAdam } from './adam.ts';
import type { Objective } from './loss.ts';
import { backward, createWorkspace, forward, type Mlp } from './mlp.ts';
import type { SplitMix64 } from '../random.ts';

/** Rows of inputs (row-major) and the objective that scores the network's outputs for them. */
export interface Dataset {
  readonly rows: number;
  readonly inputs: Float32Array;
  readonly objective: Objective;
  /**
   * Row numbers where each group of rows starts, ascending from 0 (e.g. every row of one home). A batch
   * never splits a group, so an objective can compare rows of the same group. Default: one row each.
   */
  readonly groupStarts?: Int32Array;
}

export interface FitOptions {
  readonly maxEpochs: number;
  /** Rows per step (whole groups are added while they fit). */
  readonly batchSize: number;
  readonly learningRate: number;
  /** Multiplies the learning rate after every epoch. */
  readonly learningRateDecay: number;
  /** Stop after this many epochs without a better validation loss; the best weights are kept. */
  readonly patience: number;
  readonly onEpoch?: (report: EpochReport) => void;
}

export interface EpochReport {
  epoch: number;
  trainLoss: number;
  validationLoss: number;
  learningRate: number;
  improved: boolean;
}

export interface FitResult {
  epochs: number;
  bestEpoch: number;
  bestValidationLoss: number;
  history: EpochReport[];
}

/** Fisher–Yates shuffle in place. */
function shuffle(values: Int32Array, random: SplitMix64): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    const swap = values[i]!;
    values[i] = values[j]!;
    values[j] = swap;
  }
}

/** [start, end) row ranges of the dataset's groups. */
function groupsOf(data: Dataset): { starts: Int32Array; count: number; largest: number } {
  const starts = data.groupStarts ?? Int32Array.from({ length: data.rows }, (_, r) => r);
  let largest = 0;
  for (let g = 0; g < starts.length; g++) {
    const end = g + 1 < starts.length ? starts[g + 1]! : data.rows;
    if (end <= starts[g]! || (g === 0 && starts[0] !== 0)) throw new Error('groupStarts must rise from 0');
    largest = Math.max(largest, end - starts[g]!);
  }
  return { starts, count: starts.length, largest };
}

function checkDataset(name: string, data: Dataset, inputs: number): void {
  if (data.inputs.length !== data.rows * inputs)
    throw new Error(`${name}: inputs must hold rows × ${inputs} values`);
}

/** Mean loss per row of the network over a whole dataset, in chunks of whole groups. */
export function datasetLoss(mlp: Mlp, data: Dataset, chunk = 4096): number {
  if (data.rows === 0) return 0;
  const inputs = mlp.sizes[0]!;
  const outputs = mlp.sizes[mlp.sizes.length - 1]!;
  const { starts, count, largest } = groupsOf(data);
  const capacity = Math.max(chunk, largest);
  const workspace = createWorkspace(mlp.sizes, capacity);
  const gradient = new Float32Array(capacity * outputs);
  const rowNumbers = Int32Array.from({ length: data.rows }, (_, r) => r);
  let total = 0;
  let g = 0;
  while (g < count) {
    const start = starts[g]!;
    let end = start;
    while (g < count) {
      const next = g + 1 < count ? starts[g + 1]! : data.rows;
      if (next - start > capacity) break;
      end = next;
      g++;
    }
    const rows = end - start;
    const predictions = forward(mlp, data.inputs.subarray(start * inputs, end * inputs), rows, workspace);
    total += data.objective(predictions, rowNumbers.subarray(start, end), rows, gradient);
  }
  return total / data.rows;
}

/**
 * Trains `mlp` in place with Adam on shuffled minibatches of whole groups, decaying the learning rate
 * each epoch and stopping early on the validation loss; on return the network holds the best
 * validation weights. Gradients are averaged over the rows of a batch.
 */
export function fit(
  mlp: Mlp,
  train: Dataset,
  validation: Dataset,
  options: FitOptions,
  random: SplitMix64,
): FitResult {
  const inputs = mlp.sizes[0]!;
  const outputs = mlp.sizes[mlp.sizes.length - 1]!;
  checkDataset('train', train, inputs);
  checkDataset('validation', validation, inputs);
  if (train.rows === 0 || validation.rows === 0)
    throw new Error('train and validation sets must not be empty');
  const groups = groupsOf(train);
  if (groups.largest > options.batchSize) {
    throw new Error(`a group of ${groups.largest} rows does not fit in a batch of ${options.batchSize}`);
  }

  const capacity = Math.min(options.batchSize, train.rows);
  const workspace = createWorkspace(mlp.sizes, capacity);
  const batchInputs = new Float32Array(capacity * inputs);
  const batchRows = new Int32Array(capacity);
  const outputGradient = new Float32Array(capacity * outputs);
  const gradient = new Float32Array(mlp.params.length);
  const adam = createAdam(mlp.params.length);
  const order = Int32Array.from({ length: groups.count }, (_, g) => g);
  const groupEnd = (g: number) => (g + 1 < groups.count ? groups.starts[g + 1]! : train.rows);

  const step = (count: number, rate: number): number => {
    const predictions = forward(mlp, batchInputs, count, workspace);
    const loss = train.objective(predictions, batchRows, count, outputGradient);
    for (let k = 0; k < count * outputs; k++) outputGradient[k] = outputGradient[k]! / count;
    backward(mlp, batchInputs, count, workspace, outputGradient, gradient);
    adamStep(adam, mlp.params, gradient, rate);
    return loss;
  };

  const best = Float32Array.from(mlp.params);
  let bestValidationLoss = datasetLoss(mlp, validation);
  let bestEpoch = 0;
  let rate = options.learningRate;
  const history: EpochReport[] = [];
  let epoch = 0;
  while (epoch < options.maxEpochs && epoch - bestEpoch < options.patience) {
    epoch++;
    shuffle(order, random);
    let trainLoss = 0;
    let count = 0;
    for (const g of order) {
      const start = groups.starts[g]!;
      const end = groupEnd(g);
      if (count + end - start > capacity) {
        trainLoss += step(count, rate);
        count = 0;
      }
      for (let row = start; row < end; row++, count++) {
        batchRows[count] = row;
        batchInputs.set(train.inputs.subarray(row * inputs, (row + 1) * inputs), count * inputs);
      }
    }
    if (count > 0) trainLoss += step(count, rate);

    const validationLoss = datasetLoss(mlp, validation);
    const improved = validationLoss < bestValidationLoss;
    if (improved) {
      bestValidationLoss = validationLoss;
      bestEpoch = epoch;
      best.set(mlp.params);
    }
    const report = { epoch, trainLoss: trainLoss / train.rows, validationLoss, learningRate: rate, improved };
    history.push(report);
    options.onEpoch?.(report);
    rate *= options.learningRateDecay;
  }
  mlp.params.set(best);
  return { epochs: epoch, bestEpoch, bestValidationLoss, history };
}
