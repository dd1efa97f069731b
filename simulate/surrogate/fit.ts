import { adamStep, createAdam } from './adam.ts';
import { weightedSquaredError } from './loss.ts';
import { backward, createWorkspace, forward, type Mlp } from './mlp.ts';
import { shuffle, type Random } from './prng.ts';

/** Rows of inputs and targets, row-major; weights (optional) are per target element. */
export interface Dataset {
  readonly rows: number;
  readonly inputs: Float32Array;
  readonly targets: Float32Array;
  readonly weights?: Float32Array;
}

export interface FitOptions {
  readonly maxEpochs: number;
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

function checkDataset(name: string, data: Dataset, inputs: number, outputs: number): void {
  if (data.inputs.length !== data.rows * inputs)
    throw new Error(`${name}: inputs must hold rows × ${inputs} values`);
  if (data.targets.length !== data.rows * outputs)
    throw new Error(`${name}: targets must hold rows × ${outputs} values`);
  if (data.weights && data.weights.length !== data.targets.length) {
    throw new Error(`${name}: weights must match targets in length`);
  }
}

/** Mean loss of the network over a whole dataset (evaluated in chunks through one workspace). */
export function datasetLoss(mlp: Mlp, data: Dataset, chunk = 4096): number {
  const inputs = mlp.sizes[0]!;
  const outputs = mlp.sizes[mlp.sizes.length - 1]!;
  const workspace = createWorkspace(mlp.sizes, chunk);
  const scratch = new Float32Array(chunk * outputs);
  let total = 0;
  for (let start = 0; start < data.rows; start += chunk) {
    const rows = Math.min(chunk, data.rows - start);
    const predictions = forward(
      mlp,
      data.inputs.subarray(start * inputs, (start + rows) * inputs),
      rows,
      workspace,
    );
    const span = [start * outputs, (start + rows) * outputs] as const;
    total +=
      weightedSquaredError(
        predictions,
        data.targets.subarray(...span),
        data.weights?.subarray(...span),
        rows,
        outputs,
        scratch,
      ) * rows;
  }
  return data.rows === 0 ? 0 : total / data.rows;
}

/**
 * Trains `mlp` in place with Adam on shuffled minibatches, decaying the learning rate each epoch and
 * stopping early on the validation loss; on return the network holds the best validation weights.
 */
export function fit(
  mlp: Mlp,
  train: Dataset,
  validation: Dataset,
  options: FitOptions,
  random: Random,
): FitResult {
  const inputs = mlp.sizes[0]!;
  const outputs = mlp.sizes[mlp.sizes.length - 1]!;
  checkDataset('train', train, inputs, outputs);
  checkDataset('validation', validation, inputs, outputs);
  if (train.rows === 0 || validation.rows === 0)
    throw new Error('train and validation sets must not be empty');

  const batchSize = Math.min(options.batchSize, train.rows);
  const workspace = createWorkspace(mlp.sizes, batchSize);
  const batchInputs = new Float32Array(batchSize * inputs);
  const batchTargets = new Float32Array(batchSize * outputs);
  const batchWeights = train.weights ? new Float32Array(batchSize * outputs) : undefined;
  const outputGradient = new Float32Array(batchSize * outputs);
  const gradient = new Float32Array(mlp.params.length);
  const adam = createAdam(mlp.params.length);
  const order = Int32Array.from({ length: train.rows }, (_, i) => i);

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
    for (let start = 0; start < train.rows; start += batchSize) {
      const rows = Math.min(batchSize, train.rows - start);
      for (let r = 0; r < rows; r++) {
        const row = order[start + r]!;
        batchInputs.set(train.inputs.subarray(row * inputs, (row + 1) * inputs), r * inputs);
        batchTargets.set(train.targets.subarray(row * outputs, (row + 1) * outputs), r * outputs);
        batchWeights?.set(train.weights!.subarray(row * outputs, (row + 1) * outputs), r * outputs);
      }
      const predictions = forward(mlp, batchInputs, rows, workspace);
      trainLoss +=
        weightedSquaredError(predictions, batchTargets, batchWeights, rows, outputs, outputGradient) * rows;
      backward(mlp, batchInputs, rows, workspace, outputGradient, gradient);
      adamStep(adam, mlp.params, gradient, rate);
    }
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
