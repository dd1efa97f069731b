import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMlp } from '../../../model/surrogate/mlp.ts';
import { exportOnnx } from '../../../model/surrogate/onnx-export.ts';
import { OnnxSurrogate } from '../../../model/surrogate/onnx-surrogate.ts';
import { SplitMix64 } from '../../../model/random.ts';
import {
  predictKwh,
  type SurrogateModel,
  type TargetTransform,
} from '../../../model/surrogate/surrogate-model.ts';

const INPUTS = 6;
const OUTPUTS = 4;

function uniform(length: number, random: SplitMix64, low: number, high: number): Float32Array {
  return Float32Array.from({ length }, () => low + (high - low) * random.next());
}

// A randomly initialised surrogate with realistic scales: features in the hundreds to thousands
// (like floor area and degree days) and outputs around e^8 ≈ 3,000 kWh.
function randomModel(targetTransform: TargetTransform, seed: number): SurrogateModel {
  const random = new SplitMix64(seed);
  const mlp = createMlp([INPUTS, 16, 8, OUTPUTS], random);
  for (const b of mlp.biases) b.set(uniform(b.length, random, -0.3, 0.3));
  return {
    mlp,
    input: {
      // Features are drawn from U(0, 4000) below: mean 2000, standard deviation 4000/√12 ≈ 1155.
      mean: uniform(INPUTS, random, 1900, 2100),
      scale: uniform(INPUTS, random, 0.9 / 1155, 1.1 / 1155),
    },
    output:
      targetTransform === 'log1p'
        ? { mean: uniform(OUTPUTS, random, 6, 9), scale: uniform(OUTPUTS, random, 0.5, 2) }
        : { mean: uniform(OUTPUTS, random, 1000, 9000), scale: uniform(OUTPUTS, random, 1e-4, 1e-3) },
    targetTransform,
    // The log1p model gates outputs 1 and 3 on the 0/1 feature 5, as fuels are gated on "has a gas appliance".
    outputGates:
      targetTransform === 'log1p' ? [null, GATE_FEATURE, null, GATE_FEATURE] : [null, null, null, null],
  };
}

const GATE_FEATURE = 5;

function features(rows: number, seed: number): Float32Array {
  const x = uniform(rows * INPUTS, new SplitMix64(seed), 0, 4000);
  for (let r = 0; r < rows; r++) x[r * INPUTS + GATE_FEATURE] = r % 2;
  return x;
}

// Float32 sums in a different order differ in the last bits; 1e-5 of each output's own magnitude
// (its value, or its spread 1/scale for linear outputs that can cancel to near zero) is the bound.
function expectClose(actual: Float32Array, expected: Float32Array, model: SurrogateModel): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let k = 0; k < actual.length; k++) {
    const spread = model.targetTransform === 'linear' ? 1 / model.output.scale[k % OUTPUTS]! : 1;
    worst = Math.max(worst, Math.abs(actual[k]! - expected[k]!) / Math.max(spread, Math.abs(expected[k]!)));
  }
  expect(worst).toBeLessThan(1e-5);
}

describe.each(['log1p', 'linear'] as const)('ONNX export (%s targets)', (transform) => {
  const model = randomModel(transform, transform === 'log1p' ? 21 : 22);
  let surrogate: OnnxSurrogate;
  beforeAll(async () => {
    surrogate = await OnnxSurrogate.load(exportOnnx(model, { model_version: 'test' }), 1000);
  });
  afterAll(() => surrogate.close());

  it('loads in onnxruntime with the network’s input and output widths', () => {
    expect(surrogate).toMatchObject({ inputs: INPUTS, outputs: OUTPUTS });
  });

  it('matches the TypeScript forward pass to 1e-5 across a 1001-row call split into batches of 1000', async () => {
    const x = features(1001, 5);
    const expected = predictKwh(model, x, 1001);
    expectClose(await surrogate.predict(x, 1001), expected, model);
    // Outputs are kWh: the final ReLU keeps them non-negative, and a random net does produce zeros.
    expect(expected.every((v) => v >= 0)).toBe(true);
  });

  it('outputs exactly 0 for a gated output whose gate feature is 0, and only then', async () => {
    const x = features(200, 7);
    const out = await surrogate.predict(x, 200);
    const gated = model.outputGates.flatMap((gate, f) => (gate === null ? [] : [f]));
    for (let r = 0; r < 200; r++) {
      for (const f of gated) if (r % 2 === 0) expect(out[r * OUTPUTS + f]).toBe(0);
    }
    const open = [...out].filter((v, k) => Math.floor(k / OUTPUTS) % 2 === 1 && gated.includes(k % OUTPUTS));
    expect(open.some((v) => v > 0)).toBe(gated.length > 0);
  });

  it('gives one row the same answer alone as inside a larger batch', async () => {
    const x = features(3, 6);
    const all = await surrogate.predict(x, 3);
    const second = await surrogate.predict(x.slice(INPUTS, 2 * INPUTS), 1);
    expect([...second]).toEqual([...all.subarray(OUTPUTS, 2 * OUTPUTS)]);
  });
});

describe('OnnxSurrogate.predict edge cases', () => {
  let surrogate: OnnxSurrogate;
  beforeAll(async () => {
    surrogate = await OnnxSurrogate.load(exportOnnx(randomModel('log1p', 23), {}), 1000);
  });
  afterAll(() => surrogate.close());

  it('returns an empty result for zero rows without calling the runtime', async () => {
    expect(await surrogate.predict(new Float32Array(0), 0)).toEqual(new Float32Array(0));
  });

  it('rejects a feature array whose length is not rows × inputs, naming both counts', async () => {
    await expect(surrogate.predict(new Float32Array(7), 1)).rejects.toThrow(
      'expected 1 × 6 = 6 features, got 7',
    );
    await expect(surrogate.predict(new Float32Array(0), -1)).rejects.toThrow(
      'rows must be a non-negative integer',
    );
  });

  it('refuses a non-positive batch size', async () => {
    await expect(OnnxSurrogate.load(new Uint8Array(0), 0)).rejects.toThrow(
      'batchRows must be a positive integer',
    );
  });
});
