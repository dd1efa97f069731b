import { describe, expect, it } from 'vitest';
import { datasetLoss, fit, type Dataset } from '../../../model/surrogate/fit.ts';
import { squaredError } from '../../../model/surrogate/loss.ts';
import { multiplyTransposed, transpose } from '../../../model/surrogate/matmul.ts';
import {
  backward,
  createMlp,
  createWorkspace,
  forward,
  mlpFromParams,
  parameterCount,
} from '../../../model/surrogate/mlp.ts';
import { SplitMix64 } from '../../../model/random.ts';

function uniform(length: number, random: SplitMix64, low = -1, high = 1): Float32Array {
  return Float32Array.from({ length }, () => low + (high - low) * random.next());
}

describe('multiplyTransposed', () => {
  it('matches the textbook product for shapes that leave remainders in both blocked dimensions', () => {
    const random = new SplitMix64(3);
    for (const [m, n, k] of [
      [7, 5, 3],
      [4, 2, 1],
      [1, 1, 6],
      [9, 4, 11],
    ] as const) {
      const a = uniform(m * k, random);
      const b = uniform(n * k, random);
      const c = new Float32Array(m * n);
      multiplyTransposed(a, m, b, n, k, c);
      for (let r = 0; r < m; r++) {
        for (let j = 0; j < n; j++) {
          let expected = 0;
          for (let i = 0; i < k; i++) expected += a[r * k + i]! * b[j * k + i]!;
          expect(c[r * n + j]).toBeCloseTo(expected, 5);
        }
      }
    }
  });

  it('transposes a 2 × 3 matrix', () => {
    const dst = new Float32Array(6);
    transpose(Float32Array.of(1, 2, 3, 4, 5, 6), 2, 3, dst);
    expect([...dst]).toEqual([1, 4, 2, 5, 3, 6]);
  });
});

describe('Mlp', () => {
  it('counts weights and biases of every layer', () => {
    expect(parameterCount([3, 4, 2])).toBe(3 * 4 + 4 + 4 * 2 + 2);
  });

  it('rejects a parameter vector of the wrong length and degenerate layer sizes', () => {
    expect(() => mlpFromParams([3, 4, 2], new Float32Array(10))).toThrow('expected 26 parameters');
    expect(() => mlpFromParams([3], new Float32Array(0))).toThrow('invalid layer sizes');
    expect(() => mlpFromParams([3, 0, 2], new Float32Array(0))).toThrow('invalid layer sizes');
  });

  it('computes ReLU(x·W₀ᵀ + b₀)·W₁ᵀ + b₁ for hand-set weights', () => {
    // W0 = [[1, 2], [-1, 0]] (2 hidden × 2 inputs), b0 = [0, 0.5]; W1 = [[3, 1]], b1 = [-1].
    const mlp = mlpFromParams([2, 2, 1], Float32Array.of(1, 2, -1, 0, 0, 0.5, 3, 1, -1));
    const out = forward(mlp, Float32Array.of(1, 1, 2, -3), 2, createWorkspace(mlp.sizes, 2));
    // Row 1: hidden = [3, -0.5 → 0] → 9 − 1 = 8. Row 2: hidden = [-4 → 0, -1.5 → 0] → −1.
    expect([...out]).toEqual([8, -1]);
  });

  it('refuses a batch larger than its workspace', () => {
    const mlp = createMlp([2, 3, 1], new SplitMix64(1));
    expect(() => forward(mlp, new Float32Array(6), 3, createWorkspace(mlp.sizes, 2))).toThrow('exceeds');
  });

  it('has an analytic gradient that matches central finite differences', () => {
    const random = new SplitMix64(11);
    const sizes = [5, 7, 6, 3];
    const rows = 9;
    const mlp = createMlp(sizes, random);
    for (const b of mlp.biases) b.set(uniform(b.length, random, -0.2, 0.2));
    const input = uniform(rows * 5, random);
    const targets = uniform(rows * 3, random);
    const weights = uniform(rows * 3, random, 0, 2);
    const workspace = createWorkspace(sizes, rows);
    const outputGradient = new Float32Array(rows * 3);
    const objective = squaredError(targets, weights, 3);
    const rowNumbers = Int32Array.from({ length: rows }, (_, r) => r);
    const loss = () => objective(forward(mlp, input, rows, workspace), rowNumbers, rows, outputGradient);

    loss();
    const analytic = new Float32Array(mlp.params.length);
    backward(mlp, input, rows, workspace, outputGradient, analytic);

    const step = 1e-2;
    let worst = 0;
    for (let k = 0; k < mlp.params.length; k++) {
      const saved = mlp.params[k]!;
      mlp.params[k] = saved + step;
      const up = loss();
      mlp.params[k] = saved - step;
      const down = loss();
      mlp.params[k] = saved;
      const numeric = (up - down) / (2 * step);
      worst = Math.max(
        worst,
        Math.abs(numeric - analytic[k]!) / Math.max(1e-2, Math.abs(numeric) + Math.abs(analytic[k]!)),
      );
    }
    expect(worst).toBeLessThan(2e-2);
  });
});

describe('fit', () => {
  // y = (x0·x1 + sin(2·x2), |x0 − x3|): smooth and kinked parts, both learnable by a small ReLU net.
  function knownFunction(rows: number, random: SplitMix64): { inputs: Float32Array; targets: Float32Array } {
    const inputs = uniform(rows * 4, random);
    const targets = new Float32Array(rows * 2);
    for (let r = 0; r < rows; r++) {
      const [x0, x1, x2, x3] = inputs.subarray(r * 4, r * 4 + 4);
      targets[r * 2] = x0! * x1! + Math.sin(2 * x2!);
      targets[r * 2 + 1] = Math.abs(x0! - x3!);
    }
    return { inputs, targets };
  }
  function dataset(inputs: Float32Array, targets: Float32Array, groupStarts?: Int32Array): Dataset {
    return { rows: inputs.length / 4, inputs, objective: squaredError(targets, undefined, 2), groupStarts };
  }
  const options = { maxEpochs: 60, batchSize: 64, learningRate: 3e-3, learningRateDecay: 0.96, patience: 8 };

  it('learns a known function to a small fraction of its variance, reproducibly', () => {
    const data = knownFunction(3000, new SplitMix64(5));
    const train = dataset(data.inputs.subarray(0, 2400 * 4), data.targets.subarray(0, 2400 * 2));
    const validation = dataset(data.inputs.subarray(2400 * 4), data.targets.subarray(2400 * 2));
    const run = () => {
      const mlp = createMlp([4, 32, 32, 2], new SplitMix64(7));
      const before = datasetLoss(mlp, validation);
      const result = fit(mlp, train, validation, options, new SplitMix64(8));
      return { mlp, before, result };
    };
    const { mlp, before, result } = run();
    // The loss sums both outputs' squared errors; their mean square is about 0.9 each. A good fit is
    // well under 1 % of that.
    expect(result.bestValidationLoss).toBeLessThan(0.02);
    expect(result.bestValidationLoss).toBeLessThan(before / 50);
    // The network is left holding the best-validation weights.
    expect(datasetLoss(mlp, validation)).toBeCloseTo(result.bestValidationLoss, 10);
    // Same seeds, same weights.
    expect(run().mlp.params).toEqual(mlp.params);
  });

  it('stops after `patience` epochs without improvement and keeps the starting weights', () => {
    const data = knownFunction(200, new SplitMix64(5));
    const mlp = createMlp([4, 8, 2], new SplitMix64(7));
    const start = Float32Array.from(mlp.params);
    const all = dataset(data.inputs, data.targets);
    const result = fit(mlp, all, all, { ...options, learningRate: 0, patience: 3 }, new SplitMix64(1));
    expect(result).toMatchObject({ epochs: 3, bestEpoch: 0 });
    expect(mlp.params).toEqual(start);
  });

  it('never splits a group of rows across batches', () => {
    const data = knownFunction(300, new SplitMix64(5));
    // Groups of 1–7 rows; the objective records which rows arrive together.
    const starts = [0];
    while (starts[starts.length - 1]! < 300)
      starts.push(starts[starts.length - 1]! + 1 + (starts.length % 7));
    const groupStarts = Int32Array.from(starts.slice(0, -1));
    const groupOf = new Int32Array(300);
    groupStarts.forEach((start, g) =>
      groupOf.fill(g, start, g + 1 < groupStarts.length ? groupStarts[g + 1]! : 300),
    );
    const inner = squaredError(data.targets, undefined, 2);
    const seenRows = new Map<number, number>();
    const recording: Dataset = {
      rows: 300,
      inputs: data.inputs,
      groupStarts,
      objective: (predictions, rows, count, gradient) => {
        const groupsHere = new Set(Array.from(rows.subarray(0, count), (r) => groupOf[r]!));
        for (const g of groupsHere) {
          const end = g + 1 < groupStarts.length ? groupStarts[g + 1]! : 300;
          for (let r = groupStarts[g]!; r < end; r++) expect(rows.subarray(0, count)).toContain(r);
        }
        for (let b = 0; b < count; b++) seenRows.set(rows[b]!, (seenRows.get(rows[b]!) ?? 0) + 1);
        return inner(predictions, rows, count, gradient);
      },
    };
    fit(
      createMlp([4, 8, 2], new SplitMix64(7)),
      recording,
      recording,
      { ...options, maxEpochs: 1, batchSize: 16 },
      new SplitMix64(1),
    );
    // Every row seen once in training and once in each of the two validation passes.
    expect(seenRows.size).toBe(300);
    expect([...seenRows.values()].every((n) => n === 3)).toBe(true);
  });

  it('rejects inputs that do not match the network, and groups larger than a batch', () => {
    const mlp = createMlp([4, 8, 2], new SplitMix64(7));
    const bad = {
      rows: 2,
      inputs: new Float32Array(7),
      objective: squaredError(new Float32Array(4), undefined, 2),
    };
    expect(() => fit(mlp, bad, bad, options, new SplitMix64(1))).toThrow(
      'train: inputs must hold rows × 4 values',
    );
    const data = knownFunction(100, new SplitMix64(5));
    const oneGroup = dataset(data.inputs, data.targets, Int32Array.of(0));
    expect(() => fit(mlp, oneGroup, oneGroup, options, new SplitMix64(1))).toThrow(
      'a group of 100 rows does not fit in a batch of 64',
    );
  });
});
