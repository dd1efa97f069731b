import { describe, expect, it } from 'vitest';
import { scoreAccuracy } from '../../../model/surrogate/accuracy.ts';
import { predictKwh } from '../../../model/surrogate/surrogate-model.ts';
import { fuelWeights, trainSurrogate } from '../../../model/surrogate/train-surrogate.ts';
import { buildTrainingSet, rowsOf } from '../../../model/surrogate/training-set.ts';
import { toyPhysics, toyPlan } from './synthetic-physics.ts';

// Toy features 4–7 are the one-hot heating fuel; a fossil fuel is used only when it heats the home.
const TOY_GATES = [null, 5, 6, 7];

describe('fuelWeights', () => {
  it('weights each fuel by its share of the row total, floored, and zero where the fuel is gated off', () => {
    // Row 1 heats with gas (feature 5 set); row 2 with electricity (feature 4 set), so gas/oil/propane are off.
    const features = Float32Array.of(0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0);
    const kwh = Float32Array.of(900, 100, 0, 0, 1000, 0, 0, 0);
    expect([...fuelWeights(kwh, features, 8, TOY_GATES, 0.05)]).toEqual(
      [0.9, 0.1, 0, 0, 1, 0, 0, 0].map(Math.fround),
    );
  });
});

describe('trainSurrogate', () => {
  it('learns the toy physics from the train split and predicts the energy of held-out homes closely', () => {
    const set = buildTrainingSet(toyPlan, toyPhysics);
    const trained = trainSurrogate(set, {
      seed: 1,
      hidden: [32, 32],
      targetTransform: 'log1p',
      minimumFuelWeight: 0.05,
      outputGates: TOY_GATES,
      savingsWeight: 0.05,
      savingsFloor: 0.02,
      fit: { maxEpochs: 40, batchSize: 64, learningRate: 3e-3, learningRateDecay: 0.95, patience: 6 },
    });
    expect(trained.trainRows + trained.validationRows).toBeLessThan(set.rows);

    const test = rowsOf(set, 'test');
    const features = Float32Array.from(
      [...test].flatMap((r) => [...set.features.subarray(r * 8, r * 8 + 8)]),
    );
    const accuracy = scoreAccuracy({
      rows: test.length,
      outputs: ['electricity', 'natural_gas', 'fuel_oil', 'propane'],
      upgrades: toyPhysics.upgrades,
      home: Int32Array.from([...test].map((r) => set.home[r]!)),
      upgrade: Int32Array.from([...test].map((r) => set.upgrade[r]!)),
      simulated: Float32Array.from([...test].flatMap((r) => [...set.kwh.subarray(r * 4, r * 4 + 4)])),
      predicted: predictKwh(trained.model, features, test.length),
    });
    // A few seconds of training on ~1,100 rows: close, not perfect (the real model trains far longer).
    expect(accuracy.r2_by_fuel.electricity).toBeGreaterThan(0.99);
    for (const r2 of Object.values(accuracy.r2_by_fuel)) expect(r2).toBeGreaterThan(0.98);
    expect(accuracy.median_ape_total).toBeLessThan(4);
    expect(Object.keys(accuracy.median_ape_savings_by_upgrade)).toEqual(['weatherize', 'heat_pump']);
  });
});
