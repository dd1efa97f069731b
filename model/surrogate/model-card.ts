import { z } from 'zod';
import { wrapMarkdown } from '../../lib/markdown-wrap.ts';

/**
 * The model card written next to the ONNX file by `npm run model:train`: what the model takes and gives,
 * how it was trained (enough to rebuild its held-out homes exactly), how accurate it is, and what it is
 * not. `npm run model:eval` and the tests read it back through this schema.
 */

const accuracySchema = z.object({
  r2_by_fuel: z.record(z.string(), z.number().nullable()),
  median_ape_total: z.number(),
  median_ape_savings_by_upgrade: z.record(z.string(), z.number()),
  n_homes: z.number().int(),
  n_rows: z.number().int(),
});

export const modelCardSchema = z.object({
  model_version: z.string().min(1),
  simulator_version: z.string().min(1),
  sampler_parameters_version: z.string().min(1),
  onnx: z.object({
    file: z.string().min(1),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    input: z.string(),
    output: z.string(),
    ir_version: z.number().int(),
    opset: z.number().int(),
  }),
  inputs: z.array(z.object({ name: z.string(), min: z.number(), max: z.number() })),
  outputs: z.array(z.object({ name: z.string(), unit: z.string(), gated_on: z.string().nullable() })),
  architecture: z.object({
    layers: z.array(z.number().int().positive()),
    hidden_activation: z.literal('relu'),
    target_transform: z.enum(['log1p', 'linear']),
    parameters: z.number().int(),
  }),
  training: z.object({
    command: z.string(),
    seed: z.number().int(),
    strata: z.object({ description: z.string(), count: z.number().int() }),
    homes_per_stratum: z.number().int().positive(),
    train_share: z.number(),
    validation_share: z.number(),
    homes: z.object({ train: z.number().int(), validation: z.number().int(), test: z.number().int() }),
    rows: z.object({ train: z.number().int(), validation: z.number().int(), test: z.number().int() }),
    optimiser: z.object({
      name: z.literal('adam'),
      batch_size: z.number().int(),
      learning_rate: z.number(),
      learning_rate_decay: z.number(),
      max_epochs: z.number().int(),
      patience: z.number().int(),
      minimum_fuel_weight: z.number(),
      savings_weight: z.number(),
      savings_floor: z.number(),
    }),
    epochs: z.number().int(),
    best_epoch: z.number().int(),
    seconds: z.object({ data: z.number(), training: z.number(), total: z.number() }),
  }),
  accuracy_held_out: accuracySchema,
  statement: z.string().min(1),
});
export type ModelCard = z.infer<typeof modelCardSchema>;

export const MODEL_STATEMENT =
  'This is a neural-network surrogate of this project’s own simplified building-energy model ' +
  '(simulate/: a bin-method physics model over synthetic climate normals) applied to homes drawn from ' +
  'our own coarse housing-stock sampler. It predicts annual site energy per fuel (kWh) for a home ' +
  'described by its features, with the same inputs and outputs as the reference service’s ResStock ' +
  'surrogate, so the serving path runs an ONNX model as the reference does. It is NOT ResStock, not ' +
  'NREL’s or Rewiring America’s model, and not calibrated to measured bills or metered data: its ' +
  'accuracy figures only say how closely it reproduces our simulator on held-out sampled homes, not ' +
  'how closely either matches real homes. Treat its outputs as model-derived approximations.';

/**
 * Where the model (sampler + simulator, which the surrogate copies) is knowingly off public figures, as
 * checked by test/model/physics/physical-sense.test.ts on typical county clusters (sources in model/README.md).
 */
export const KNOWN_BIASES: readonly string[] = [
  'Gas-heated clusters of the cold North use about 1.16× the natural gas of the EIA RECS 2020 Midwestern ' +
    'gas household (Wayne County, MI 88.6 and Cook County, IL 88.1 MMBtu against 76.1): RECS averages include ' +
    'apartments and homes that do not heat with gas, our clusters are gas-heated single-family and mobile ' +
    'homes. Their space heating is 0.97× RECS Michigan (70.5 against 72.7 MMBtu) and 1.17× RECS Kansas ' +
    '(59.5 against 50.9). State by state and division by division against EIA SEDS and RECS 2020: ' +
    'docs/rem-model.md, calibration.',
  'Electric-heated Gulf homes use about 1.17× EIA’s per-customer figure (East Baton Rouge, LA: 16,807 ' +
    'against 14,407 kWh, all customers, 2020).',
  'Each county takes the nearest weather station of its IECC zone. About 50 mountain and Sierra counties ' +
    'lie more than 800 km from it (zone 7 Colorado counties get Fargo, ND; Sierra foothill counties get ' +
    'Albuquerque, NM): their climate is of the right zone but not local, so heating and cooling there are ' +
    'rough.',
  'Electricity emissions are, by default, NREL Cambium 2024’s mid-case levelized long-run marginal CO2e ' +
    'rate of the county’s region (2027–2041: from 0.071 kg/kWh in the Pacific Northwest to 0.319 in ' +
    'Florida), the mean of its hours, not weighted by when a home uses electricity; on request, the ' +
    'average rate of the eGRID2023 subregion serving most of the state, so parts of split states take the ' +
    'larger grid’s rate.',
];

const fmt = (value: number | null, digits: number): string =>
  value === null ? 'n/a' : value.toFixed(digits);

/**
 * The card as markdown (model-card.md), for people, its paragraphs and list items wrapped at 120 characters; the
 * JSON is the source of truth. `npm run model:card` renders it again from the committed JSON without training.
 */
export function renderModelCard(card: ModelCard): string {
  const t = card.training;
  const a = card.accuracy_held_out;
  const lines = [
    `# REM surrogate model card — ${card.model_version}`,
    '',
    wrapMarkdown(card.statement),
    '',
    '## Versions',
    '',
    `- Model: \`${card.model_version}\``,
    `- Simulator: \`${card.simulator_version}\``,
    `- Sampler parameters: \`${card.sampler_parameters_version}\``,
    wrapMarkdown(
      `ONNX: \`${card.onnx.file}\` (IR ${card.onnx.ir_version}, opset ${card.onnx.opset}, sha256 \`${card.onnx.sha256}\`)`,
      '- ',
      '  ',
    ),
    '',
    '## Outputs',
    '',
    wrapMarkdown(
      `\`${card.onnx.output}\`: rows × ${card.outputs.length} float32, annual site energy per fuel. A fuel's output is ` +
        'exactly 0 when its gate feature is 0 (the home has no appliance using that fuel).',
    ),
    '',
    '| output | unit | gated on |',
    '|---|---|---|',
    ...card.outputs.map((o) => `| ${o.name} | ${o.unit} | ${o.gated_on ?? '—'} |`),
    '',
    '## Inputs',
    '',
    wrapMarkdown(
      `\`${card.onnx.input}\`: rows × ${card.inputs.length} float32 raw features in FEATURE_NAMES order ` +
        '(model/features.ts); standardisation is inside the model.',
    ),
    '',
    '| # | feature | min | max |',
    '|---|---|---|---|',
    ...card.inputs.map((f, i) => `| ${i} | ${f.name} | ${f.min} | ${f.max} |`),
    '',
    '## Training',
    '',
    ...[
      `Command: \`${t.command}\` (seed ${t.seed}; the same command gives the same model)`,
      `Homes: ${t.homes_per_stratum} per stratum over ${t.strata.count} strata (${t.strata.description})`,
      `Split by home: ${t.homes.train} train / ${t.homes.validation} validation / ${t.homes.test} test homes ` +
        `(${t.rows.train} / ${t.rows.validation} / ${t.rows.test} rows, one per home and applicable upgrade)`,
      `Network: ${card.architecture.layers.join(' → ')} (ReLU; ${card.architecture.parameters} parameters), ` +
        `targets ${card.architecture.target_transform}(kWh), loss weighted by each fuel's share of the total, ` +
        `plus ${t.optimiser.savings_weight} × squared relative error of each upgrade's savings against its baseline`,
      `Adam, batch ${t.optimiser.batch_size}, learning rate ${t.optimiser.learning_rate} × ` +
        `${t.optimiser.learning_rate_decay}/epoch, ${t.epochs} epochs (best ${t.best_epoch}; early stopping ` +
        `patience ${t.optimiser.patience})`,
      `Time: ${t.seconds.data.toFixed(0)} s drawing and simulating, ${t.seconds.training.toFixed(0)} s training, ` +
        `${t.seconds.total.toFixed(0)} s in all`,
    ].map((item) => wrapMarkdown(item, '- ', '  ')),
    '',
    `## Accuracy on ${a.n_homes} held-out homes (${a.n_rows} rows), surrogate vs simulator`,
    '',
    '| fuel | R² |',
    '|---|---|',
    ...Object.entries(a.r2_by_fuel).map(([fuel, r2]) => `| ${fuel} | ${fmt(r2, 4)} |`),
    '',
    `Median absolute percentage error of total site energy: ${fmt(a.median_ape_total, 2)} %`,
    '',
    '| upgrade | median APE of savings (baseline − upgraded total) |',
    '|---|---|',
    ...Object.entries(a.median_ape_savings_by_upgrade).map(([u, v]) => `| ${u} | ${fmt(v, 2)} % |`),
    '',
    '## Known biases against public figures',
    '',
    ...KNOWN_BIASES.map((bias) => wrapMarkdown(bias, '- ', '  ')),
    '',
  ];
  return lines.join('\n');
}
