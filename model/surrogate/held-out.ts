import { scoreAccuracy, type SurrogateAccuracy } from './accuracy.ts';
import { gatherRows, rowsOf, type Split, type TrainingSet } from './training-set.ts';

/** Anything that turns rows of raw features into kWh per output (the ONNX adapter, or a TS model). */
export interface Predictor {
  predict(features: Float32Array, rows: number): Promise<Float32Array>;
}

/** Scores a predictor against the simulator on one split of the set (the held-out `test` by default). */
export async function scoreSplit(
  set: TrainingSet,
  predictor: Predictor,
  outputs: readonly string[],
  upgrades: readonly string[],
  part: Split = 'test',
): Promise<SurrogateAccuracy> {
  const rows = rowsOf(set, part);
  const predicted = await predictor.predict(gatherRows(set.features, set.featureCount, rows), rows.length);
  return scoreAccuracy({
    rows: rows.length,
    outputs,
    upgrades,
    home: Int32Array.from(rows, (r) => set.home[r]!),
    upgrade: Int32Array.from(rows, (r) => set.upgrade[r]!),
    simulated: gatherRows(set.kwh, set.outputCount, rows),
    predicted,
  });
}
