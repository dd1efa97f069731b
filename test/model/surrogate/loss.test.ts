import { describe, expect, it } from 'vitest';
import { savingsError, squaredError, sumOf, type Objective } from '../../../model/surrogate/loss.ts';

const rowsOf = (...rows: number[]) => Int32Array.from(rows);

describe('squaredError', () => {
  it('sums weighted squared errors of the given dataset rows; a zero weight masks a target out', () => {
    // Dataset of 3 rows × 2 outputs; the batch holds rows 2 and 0, in that order.
    const objective = squaredError(Float32Array.of(0, 0, 9, 9, 1, 1), Float32Array.of(1, 0, 1, 1, 0.5, 2), 2);
    const gradient = new Float32Array(4);
    const loss = objective(Float32Array.of(2, 3, 5, 0), rowsOf(2, 0), 2, gradient);
    // Row 2: 0.5·1² + 2·2² = 8.5; row 0: 1·5² + 0·0² = 25.
    expect(loss).toBe(33.5);
    expect([...gradient]).toEqual([1, 8, 10, 0]);
  });
});

describe('savingsError', () => {
  // Two outputs whose network values map to kWh = expm1(value / scale + mean).
  const output = { mean: Float32Array.of(7, 6), scale: Float32Array.of(1, 0.5) };
  const data = {
    baselineOf: Int32Array.of(-1, 0, 0),
    totals: Float32Array.of(3000, 2000, 2600),
    gates: Float32Array.of(1, 1, 1, 1, 1, 0), // row 2 has no second fuel
    output,
    weight: 0.5,
    floor: 0.02,
  };
  const predictions = Float32Array.of(0.9, -0.3, 0.6, -0.4, 0.8, 0.2);
  const kwh = (p: number, f: number) => Math.expm1(p / output.scale[f]! + output.mean[f]!);

  it('is the weighted squared relative error of each upgraded row’s savings against its baseline', () => {
    const gradient = new Float32Array(6);
    const loss = savingsError(data)(predictions, rowsOf(0, 1, 2), 3, gradient);
    const total = (r: number, outputs: number) =>
      [0, 1].slice(0, outputs).reduce((sum, f) => sum + kwh(predictions[r * 2 + f]!, f), 0);
    const base = total(0, 2);
    const e1 = (base - total(1, 2) - 1000) / (1000 + 0.02 * 3000);
    const e2 = (base - total(2, 1) - 400) / (400 + 0.02 * 3000);
    expect(loss).toBeCloseTo(0.5 * (e1 * e1 + e2 * e2), 6);
    // A gated-off output gets no gradient.
    expect(gradient[5]).toBe(0);
  });

  it('has a gradient that matches central finite differences', () => {
    expectGradientMatches(savingsError(data), predictions, rowsOf(0, 1, 2));
  });

  it('insists that a row’s baseline is in the same batch', () => {
    expect(() =>
      savingsError(data)(predictions.subarray(0, 4), rowsOf(1, 2), 2, new Float32Array(4)),
    ).toThrow("row 1's baseline row 0 is not in the same batch");
  });
});

describe('sumOf', () => {
  it('adds losses and gradients', () => {
    const a = squaredError(Float32Array.of(1, 2), undefined, 2);
    const b = squaredError(Float32Array.of(0, 0), Float32Array.of(3, 3), 2);
    const gradient = new Float32Array(2);
    expect(sumOf(a, b)(Float32Array.of(2, 2), rowsOf(0), 1, gradient)).toBe(1 + 24);
    expect([...gradient]).toEqual([2 + 12, 0 + 12]);
  });
});

function expectGradientMatches(objective: Objective, predictions: Float32Array, rows: Int32Array): void {
  const count = rows.length;
  const analytic = new Float32Array(predictions.length);
  objective(predictions, rows, count, analytic);
  const scratch = new Float32Array(predictions.length);
  const step = 1e-3;
  for (let k = 0; k < predictions.length; k++) {
    const probe = Float32Array.from(predictions);
    probe[k] = predictions[k]! + step;
    const up = objective(probe, rows, count, scratch);
    probe[k] = predictions[k]! - step;
    const down = objective(probe, rows, count, scratch);
    const numeric = (up - down) / (2 * step);
    expect(Math.abs(numeric - analytic[k]!)).toBeLessThan(1e-3 * Math.max(1, Math.abs(numeric)));
  }
}
