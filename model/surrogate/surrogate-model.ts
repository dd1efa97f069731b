import { createWorkspace, forward, type Mlp } from './mlp.ts';

/**
 * How targets (kWh ≥ 0) are mapped before standardisation. `log1p` makes the squared loss a relative
 * error, so a 300 kWh cooking load and a 20,000 kWh heating load are fitted equally well.
 */
export type TargetTransform = 'log1p' | 'linear';

/** Per-column affine map: standardised = (raw − mean) · scale. */
export interface Standardizer {
  readonly mean: Float32Array;
  readonly scale: Float32Array;
}

/**
 * The whole surrogate: raw features → standardise → MLP → de-standardise → inverse target transform →
 * clip at 0 → gate. The ONNX export writes exactly this chain, and `predictKwh` is its reference in
 * TypeScript.
 */
export interface SurrogateModel {
  readonly mlp: Mlp;
  readonly input: Standardizer;
  readonly output: Standardizer;
  readonly targetTransform: TargetTransform;
  /**
   * Per output, the index of a 0/1 feature that must be 1 for the output to be non-zero (e.g. "has a
   * natural-gas appliance" for natural gas), or null for an output that is never gated. A fuel the home
   * does not use is then exactly 0, and the network never has to learn that.
   */
  readonly outputGates: readonly (number | null)[];
}

/** 1 when the row's gate feature for `output` is set (or the output has no gate), else 0. */
export function gateOf(model: SurrogateModel, features: Float32Array, row: number, output: number): number {
  const gate = model.outputGates[output];
  return gate === null || gate === undefined ? 1 : features[row * model.mlp.sizes[0]! + gate]!;
}

/**
 * Column means and 1/std over `rows` rows of a row-major matrix, counting only elements whose `mask`
 * entry is non-zero when a mask is given. A constant (or empty) column gets scale 1 so it maps to a
 * finite value instead of dividing by zero.
 */
export function fitStandardizer(
  values: Float32Array,
  rows: number,
  width: number,
  mask?: Float32Array,
): Standardizer {
  if (rows === 0) throw new Error('cannot standardise zero rows');
  const count = new Float64Array(width);
  const sum = new Float64Array(width);
  const squares = new Float64Array(width);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < width; c++) {
      if (mask && mask[r * width + c] === 0) continue;
      const v = values[r * width + c]!;
      count[c] = count[c]! + 1;
      sum[c] = sum[c]! + v;
      squares[c] = squares[c]! + v * v;
    }
  }
  const mean = new Float32Array(width);
  const scale = new Float32Array(width);
  for (let c = 0; c < width; c++) {
    const n = Math.max(1, count[c]!);
    const m = sum[c]! / n;
    const variance = Math.max(0, squares[c]! / n - m * m);
    const std = Math.sqrt(variance);
    mean[c] = m;
    scale[c] = std > 1e-6 * Math.max(1, Math.abs(m)) ? 1 / std : 1;
  }
  return { mean, scale };
}

/** Writes the standardised copy of `values` (rows × width) into `out`. */
export function standardize(standardizer: Standardizer, values: Float32Array, out: Float32Array): void {
  const { mean, scale } = standardizer;
  const width = mean.length;
  for (let k = 0; k < values.length; k++) {
    const c = k % width;
    out[k] = (values[k]! - mean[c]!) * scale[c]!;
  }
}

export function transformTargets(transform: TargetTransform, kwh: Float32Array): Float32Array {
  return transform === 'log1p' ? kwh.map(Math.log1p) : Float32Array.from(kwh);
}

/**
 * Reference prediction in TypeScript: kWh per output for `rows` rows of raw features, computed in the
 * same order of operations as the exported ONNX graph.
 */
export function predictKwh(model: SurrogateModel, features: Float32Array, rows: number): Float32Array {
  const inputs = model.mlp.sizes[0]!;
  const outputs = model.mlp.sizes[model.mlp.sizes.length - 1]!;
  if (features.length !== rows * inputs)
    throw new Error(`expected ${rows} × ${inputs} features, got ${features.length}`);
  const standardized = new Float32Array(features.length);
  standardize(model.input, features, standardized);
  const raw = forward(model.mlp, standardized, rows, createWorkspace(model.mlp.sizes, Math.max(rows, 1)));
  const kwh = new Float32Array(rows * outputs);
  const { mean, scale } = model.output;
  for (let k = 0; k < kwh.length; k++) {
    const c = k % outputs;
    const transformed = Math.fround(Math.fround(raw[k]! / scale[c]!) + mean[c]!);
    const value = model.targetTransform === 'log1p' ? Math.fround(Math.exp(transformed)) - 1 : transformed;
    kwh[k] = value > 0 ? value * gateOf(model, features, Math.floor(k / outputs), c) : 0;
  }
  return kwh;
}
