import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createProgress } from '../../lib/progress.ts';
import { FUELS, UPGRADES } from '../../schemas/rem.ts';
import { FEATURE_NAMES, SIMULATOR_VERSION } from '../features.ts';
import { SAMPLER_PARAMETERS_VERSION } from '../sampler/sample-homes.ts';
import { scoreSplit } from '../surrogate/held-out.ts';
import { COMMITTED_MODEL_DIR, readModelFiles } from '../surrogate/committed-model.ts';
import { OnnxSurrogate } from '../surrogate/onnx-surrogate.ts';
import { remSources } from '../surrogate/rem-sources.ts';
import { trainingPlan } from '../surrogate/training-config.ts';
import { buildTrainingSet } from '../surrogate/training-set.ts';

// npm run model:eval [-- --json] [--model DIR]
// Rebuilds the held-out test homes of the committed model's own seeded draw (homes never used in
// training or early stopping), simulates them, and scores the ONNX model against the simulator.
// Progress goes to stderr; with --json the last stdout line is one JSON object.
const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    model: {
      type: 'string',
      default: COMMITTED_MODEL_DIR,
    },
  },
});
const logger = pino({ name: 'model:eval' }, pino.destination({ dest: 2, sync: true }));

const { card, onnx } = await readModelFiles(values.model);
if (card.inputs.length !== FEATURE_NAMES.length) {
  throw new Error(
    `the model takes ${card.inputs.length} features but FEATURE_NAMES has ${FEATURE_NAMES.length}`,
  );
}
for (const [what, trained, now] of [
  ['simulator', card.simulator_version, SIMULATOR_VERSION],
  ['sampler parameters', card.sampler_parameters_version, SAMPLER_PARAMETERS_VERSION],
] as const) {
  if (trained !== now)
    logger.warn({ trained, now }, `${what} changed since training: retrain with npm run model:train`);
}

const plan = trainingPlan(card.training.homes_per_stratum);
if (plan.seed !== card.training.seed || plan.strata.length !== card.training.strata.count) {
  throw new Error('the training plan in training-config.ts no longer matches the model card: retrain');
}
const progress = createProgress({ logger });
const drawing = progress.start('drawing and simulating held-out homes', {
  total: plan.strata.length,
  unit: 'strata',
});
const set = buildTrainingSet(plan, remSources, ['test'], () => drawing.tick());
drawing.done();

const surrogate = await OnnxSurrogate.load(onnx);
const accuracy = await scoreSplit(set, surrogate, FUELS, UPGRADES);
await surrogate.close();

const result = {
  r2_by_fuel: accuracy.r2_by_fuel,
  median_ape_total: accuracy.median_ape_total,
  median_ape_savings_by_upgrade: accuracy.median_ape_savings_by_upgrade,
  n_homes: accuracy.n_homes,
  n_rows: accuracy.n_rows,
  model_version: card.model_version,
};
if (!values.json) {
  const pct = (v: number) => `${v.toFixed(2)} %`;
  console.log(`${card.model_version} on ${result.n_homes} held-out homes (${result.n_rows} rows)`);
  for (const [fuel, r2] of Object.entries(result.r2_by_fuel))
    console.log(`  R² ${fuel}: ${r2?.toFixed(4) ?? 'n/a'}`);
  console.log(`  median APE, total site energy: ${pct(result.median_ape_total)}`);
  for (const [upgrade, ape] of Object.entries(result.median_ape_savings_by_upgrade)) {
    console.log(`  median APE of savings, ${upgrade}: ${pct(ape)}`);
  }
}
console.log(JSON.stringify(result));
