import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { format, resolveConfig } from 'prettier';
import { createProgress } from '../../lib/progress.ts';
import { FUELS, UPGRADES } from '../../schemas/rem.ts';
import { FEATURE_NAMES, FEATURE_RANGES, SIMULATOR_VERSION } from '../features.ts';
import { SAMPLER_PARAMETERS_VERSION } from '../sampler/sample-homes.ts';
import { scoreSplit } from '../surrogate/held-out.ts';
import { MODEL_STATEMENT, modelCardSchema, type ModelCard } from '../surrogate/model-card.ts';
import { parameterCount } from '../surrogate/mlp.ts';
import {
  ONNX_INPUT,
  ONNX_IR_VERSION,
  ONNX_OPSET,
  ONNX_OUTPUT,
  exportOnnx,
} from '../surrogate/onnx-export.ts';
import { formattedModelCard } from '../surrogate/model-card-file.ts';
import { OnnxSurrogate } from '../surrogate/onnx-surrogate.ts';
import { remSources } from '../surrogate/rem-sources.ts';
import { predictKwh } from '../surrogate/surrogate-model.ts';
import { trainSurrogate } from '../surrogate/train-surrogate.ts';
import {
  DEFAULT_HOMES_PER_STRATUM,
  DEFAULT_MAX_EPOCHS,
  MODEL_VERSION,
  STRATA_DESCRIPTION,
  trainingOptions,
  trainingPlan,
} from '../surrogate/training-config.ts';
import { buildTrainingSet, gatherRows, rowsOf } from '../surrogate/training-set.ts';

// npm run model:train [-- --homes-per-stratum N --max-epochs N --out DIR]
// Draws the training set, trains, and writes rem-surrogate.onnx, model-card.json/.md and golden.json.
// Progress goes to stderr; a one-line JSON summary to stdout.
const { values } = parseArgs({
  options: {
    'homes-per-stratum': { type: 'string', default: String(DEFAULT_HOMES_PER_STRATUM) },
    'max-epochs': { type: 'string', default: String(DEFAULT_MAX_EPOCHS) },
    out: {
      type: 'string',
      default: path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts'),
    },
  },
});
const positive = (name: string, raw: string): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return n;
};
const homesPerStratum = positive('homes-per-stratum', values['homes-per-stratum']);
const maxEpochs = positive('max-epochs', values['max-epochs']);
const outDir = values.out;

// Synchronous: training blocks the event loop, and buffered lines would only appear at the end.
const logger = pino({ name: 'model:train' }, pino.destination({ dest: 2, sync: true }));
const progress = createProgress({ logger });
const started = performance.now();

const plan = trainingPlan(homesPerStratum);
const options = trainingOptions(maxEpochs);
const drawing = progress.start('drawing and simulating homes', { total: plan.strata.length, unit: 'strata' });
const set = buildTrainingSet(plan, remSources, undefined, () => drawing.tick());
drawing.done();
const dataSeconds = (performance.now() - started) / 1000;
logger.info({ homes: set.homesBySplit, rows: set.rows, seconds: dataSeconds }, 'training set ready');

const trainingStarted = performance.now();
const trained = trainSurrogate(set, options, (epoch) => logger.info(epoch, 'epoch'));
const trainingSeconds = (performance.now() - trainingStarted) / 1000;

const metadata = {
  model_version: MODEL_VERSION,
  simulator_version: SIMULATOR_VERSION,
  sampler_parameters_version: SAMPLER_PARAMETERS_VERSION,
  feature_names: JSON.stringify(FEATURE_NAMES),
  output_names: JSON.stringify(FUELS),
};
const onnx = exportOnnx(trained.model, metadata);
const surrogate = await OnnxSurrogate.load(onnx);
const accuracy = await scoreSplit(set, surrogate, FUELS, UPGRADES);
await surrogate.close();

// Golden rows: held-out features and the TypeScript forward pass's answer, which onnxruntime must reproduce.
const goldenRows = rowsOf(set, 'test').subarray(0, 32);
const goldenFeatures = gatherRows(set.features, set.featureCount, goldenRows);
const goldenKwh = predictKwh(trained.model, goldenFeatures, goldenRows.length);
// Nine significant digits identify a float32 exactly, and keep the file small.
const chunk = (values: Float32Array, width: number): number[][] =>
  Array.from({ length: values.length / width }, (_, r) =>
    Array.from(values.subarray(r * width, (r + 1) * width), (v) => Number(v.toPrecision(9))),
  );

const testRows = rowsOf(set, 'test').length;
const card: ModelCard = modelCardSchema.parse({
  model_version: MODEL_VERSION,
  simulator_version: SIMULATOR_VERSION,
  sampler_parameters_version: SAMPLER_PARAMETERS_VERSION,
  onnx: {
    file: 'rem-surrogate.onnx',
    sha256: createHash('sha256').update(onnx).digest('hex'),
    input: ONNX_INPUT,
    output: ONNX_OUTPUT,
    ir_version: ONNX_IR_VERSION,
    opset: ONNX_OPSET,
  },
  inputs: FEATURE_NAMES.map((name) => ({ name, ...FEATURE_RANGES[name]! })),
  outputs: FUELS.map((name, f) => {
    const gate = trained.model.outputGates[f];
    return {
      name,
      unit: 'kWh/year (site)',
      gated_on: gate === null || gate === undefined ? null : FEATURE_NAMES[gate],
    };
  }),
  architecture: {
    layers: trained.model.mlp.sizes,
    hidden_activation: 'relu',
    target_transform: trained.model.targetTransform,
    parameters: parameterCount(trained.model.mlp.sizes),
  },
  training: {
    command:
      'npm run model:train' + (process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''),
    seed: plan.seed,
    strata: { description: STRATA_DESCRIPTION, count: plan.strata.length },
    homes_per_stratum: plan.homesPerStratum,
    train_share: plan.trainShare,
    validation_share: plan.validationShare,
    homes: set.homesBySplit,
    rows: { train: trained.trainRows, validation: trained.validationRows, test: testRows },
    optimiser: {
      name: 'adam',
      batch_size: options.fit.batchSize,
      learning_rate: options.fit.learningRate,
      learning_rate_decay: options.fit.learningRateDecay,
      max_epochs: options.fit.maxEpochs,
      patience: options.fit.patience,
      minimum_fuel_weight: options.minimumFuelWeight,
      savings_weight: options.savingsWeight,
      savings_floor: options.savingsFloor,
    },
    epochs: trained.fit.epochs,
    best_epoch: trained.fit.bestEpoch,
    seconds: { data: dataSeconds, training: trainingSeconds, total: (performance.now() - started) / 1000 },
  },
  accuracy_held_out: accuracy,
  statement: MODEL_STATEMENT,
});

// Text artifacts are written already formatted, so `npm run lint` accepts a fresh model as it is.
const writeFormatted = async (file: string, text: string): Promise<void> => {
  const target = path.join(outDir, file);
  await writeFile(target, await format(text, { ...(await resolveConfig(target)), filepath: target }));
};
await mkdir(outDir, { recursive: true });
await writeFile(path.join(outDir, card.onnx.file), onnx);
await writeFormatted('model-card.json', JSON.stringify(card, null, 2));
await writeFile(
  path.join(outDir, 'model-card.md'),
  await formattedModelCard(card, path.join(outDir, 'model-card.md')),
);
await writeFormatted(
  'golden.json',
  JSON.stringify({
    model_version: MODEL_VERSION,
    features: chunk(goldenFeatures, set.featureCount),
    kwh: chunk(goldenKwh, FUELS.length),
  }),
);
logger.info({ outDir, seconds: card.training.seconds }, 'model written');
console.log(JSON.stringify({ model_version: MODEL_VERSION, ...accuracy, seconds: card.training.seconds }));
