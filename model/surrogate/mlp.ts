import { multiplyTransposed, transpose } from './matmul.ts';
import type { SplitMix64 } from '../random.ts';

/**
 * A dense multilayer perceptron: ReLU on every hidden layer, linear output. All weights and biases live
 * in one contiguous Float32Array (layer by layer: W then b) so the optimiser and gradient are single
 * loops. Each W is stored output-major (W[j * inputs + i], the layout of ONNX Gemm with transB = 1) so
 * the forward pass is a run of contiguous dot products.
 */
export interface Mlp {
  /** Layer widths: [inputs, hidden..., outputs]. */
  readonly sizes: readonly number[];
  readonly params: Float32Array;
  /** Views into params, one per layer: outputs × inputs, and outputs. */
  readonly weights: readonly Float32Array[];
  readonly biases: readonly Float32Array[];
}

/** Buffers for one batch, reused across steps so training allocates nothing per step. */
export interface Workspace {
  readonly capacity: number;
  /** Output of each layer (post-ReLU for hidden layers), rows × width. */
  readonly activations: readonly Float32Array[];
  /** dLoss/d(pre-activation) of each layer, rows × width. */
  readonly deltas: readonly Float32Array[];
  /** Scratch for transposed operands of the backward pass. */
  readonly transposedInput: Float32Array;
  readonly transposedDelta: Float32Array;
  readonly transposedWeights: Float32Array;
}

export function parameterCount(sizes: readonly number[]): number {
  let count = 0;
  for (let l = 0; l + 1 < sizes.length; l++) count += sizes[l]! * sizes[l + 1]! + sizes[l + 1]!;
  return count;
}

/** Wraps an existing parameter vector (e.g. one read back from a file) as a network. */
export function mlpFromParams(sizes: readonly number[], params: Float32Array): Mlp {
  if (sizes.length < 2 || sizes.some((s) => !Number.isInteger(s) || s < 1)) {
    throw new Error(`invalid layer sizes [${sizes.join(', ')}]`);
  }
  if (params.length !== parameterCount(sizes)) {
    throw new Error(
      `expected ${parameterCount(sizes)} parameters for [${sizes.join(', ')}], got ${params.length}`,
    );
  }
  const weights: Float32Array[] = [];
  const biases: Float32Array[] = [];
  let offset = 0;
  for (let l = 0; l + 1 < sizes.length; l++) {
    const fanIn = sizes[l]!;
    const fanOut = sizes[l + 1]!;
    weights.push(params.subarray(offset, offset + fanIn * fanOut));
    offset += fanIn * fanOut;
    biases.push(params.subarray(offset, offset + fanOut));
    offset += fanOut;
  }
  return { sizes: [...sizes], params, weights, biases };
}

/** He-normal initialisation (std √(2 / fan-in)), suited to ReLU layers; biases start at zero. */
export function createMlp(sizes: readonly number[], random: SplitMix64): Mlp {
  const mlp = mlpFromParams(sizes, new Float32Array(parameterCount(sizes)));
  mlp.weights.forEach((w, l) => {
    const std = Math.sqrt(2 / sizes[l]!);
    for (let k = 0; k < w.length; k++) w[k] = random.normal() * std;
  });
  return mlp;
}

export function createWorkspace(sizes: readonly number[], capacity: number): Workspace {
  const widest = Math.max(...sizes);
  let largestLayer = 0;
  for (let l = 0; l + 1 < sizes.length; l++) largestLayer = Math.max(largestLayer, sizes[l]! * sizes[l + 1]!);
  return {
    capacity,
    activations: sizes.slice(1).map((width) => new Float32Array(capacity * width)),
    deltas: sizes.slice(1).map((width) => new Float32Array(capacity * width)),
    transposedInput: new Float32Array(capacity * widest),
    transposedDelta: new Float32Array(capacity * widest),
    transposedWeights: new Float32Array(largestLayer),
  };
}

/**
 * Runs `rows` rows of `input` (rows × inputs, row-major) through the network. Returns a view of the
 * workspace holding rows × outputs, valid until the workspace is used again.
 */
export function forward(mlp: Mlp, input: Float32Array, rows: number, workspace: Workspace): Float32Array {
  if (rows > workspace.capacity) {
    throw new Error(`batch of ${rows} rows exceeds workspace capacity ${workspace.capacity}`);
  }
  const { sizes } = mlp;
  const last = sizes.length - 2;
  let layerInput = input;
  for (let l = 0; l <= last; l++) {
    const fanOut = sizes[l + 1]!;
    const out = workspace.activations[l]!;
    const bias = mlp.biases[l]!;
    multiplyTransposed(layerInput, rows, mlp.weights[l]!, fanOut, sizes[l]!, out);
    const relu = l < last;
    for (let r = 0; r < rows; r++) {
      const o = r * fanOut;
      for (let j = 0; j < fanOut; j++) {
        const value = out[o + j]! + bias[j]!;
        out[o + j] = relu && value < 0 ? 0 : value;
      }
    }
    layerInput = out;
  }
  return workspace.activations[last]!.subarray(0, rows * sizes[last + 1]!);
}

/**
 * Backpropagates dLoss/dOutput (rows × outputs) through the activations left by the last `forward`
 * on the same input, and WRITES the parameter gradient into `gradient` (same layout as mlp.params).
 */
export function backward(
  mlp: Mlp,
  input: Float32Array,
  rows: number,
  workspace: Workspace,
  outputGradient: Float32Array,
  gradient: Float32Array,
): void {
  const { sizes } = mlp;
  const last = sizes.length - 2;
  const { transposedInput, transposedDelta, transposedWeights } = workspace;
  workspace.deltas[last]!.set(outputGradient.subarray(0, rows * sizes[last + 1]!));
  let offset = gradient.length;
  for (let l = last; l >= 0; l--) {
    const fanIn = sizes[l]!;
    const fanOut = sizes[l + 1]!;
    const delta = workspace.deltas[l]!;
    const layerInput = l === 0 ? input : workspace.activations[l - 1]!;
    offset -= fanOut;
    const gb = gradient.subarray(offset, offset + fanOut);
    offset -= fanIn * fanOut;
    const gw = gradient.subarray(offset, offset + fanIn * fanOut);

    // dW (fanOut × fanIn) = deltaᵀ · input; db = column sums of delta.
    transpose(delta, rows, fanOut, transposedDelta);
    transpose(layerInput, rows, fanIn, transposedInput);
    multiplyTransposed(transposedDelta, fanOut, transposedInput, fanIn, rows, gw);
    for (let j = 0; j < fanOut; j++) {
      let sum = 0;
      const t = j * rows;
      for (let r = 0; r < rows; r++) sum += transposedDelta[t + r]!;
      gb[j] = sum;
    }
    if (l === 0) break;

    // Delta below = (delta · W) masked by ReLU' (zero where the activation was clipped to zero).
    const below = workspace.deltas[l - 1]!;
    transpose(mlp.weights[l]!, fanOut, fanIn, transposedWeights);
    multiplyTransposed(delta, rows, transposedWeights, fanIn, fanOut, below);
    const n = rows * fanIn;
    for (let k = 0; k < n; k++) if (layerInput[k]! === 0) below[k] = 0;
  }
}
