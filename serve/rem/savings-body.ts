import type { ESTIMATE_TYPES } from '../../schemas/rem-api.ts';
import { RESULT_FUELS, SCENARIOS } from '../../schemas/rem-data.ts';
import { ENERGY_UNITS, LINE_VALUES, type ClusterAnswer } from './cluster-statistics-store.ts';

/**
 * The `Savings` JSON of one answer, written as bytes from a slot's numbers and pre-encoded fragments:
 * every key, unit and the location's rates and emission factors are fixed, so an answer costs 180 number
 * formats and a few copies (no object graph, no schema walk). The numbers' part is ASCII, so it is copied
 * one byte per character; only the fixed fragments (the model statement has typographic quotes) are
 * UTF-8 beyond ASCII, and they are encoded once per snapshot. Encoding the whole body as one string
 * instead took about as long as writing it (a two-byte string of ~900 pieces to flatten and encode).
 */

const MEASURE_UNITS = (fuel: (typeof RESULT_FUELS)[number]) => [ENERGY_UNITS[fuel], 'kgCO2e', '$'] as const;
const MEASURE_KEYS = ['energy', 'emissions', 'cost'] as const;
const STATISTIC_KEYS = ['mean', 'median', 'percentile_20', 'percentile_80'] as const;

/** Per result fuel, the 12 (prefix, suffix) pairs around each number of a line, in slot order. */
const LINE_PARTS = RESULT_FUELS.map((fuel) =>
  MEASURE_KEYS.flatMap((measure, m) =>
    STATISTIC_KEYS.map((statistic, s) => ({
      prefix: `${s === 0 ? `"${measure}":{` : ''}"${statistic}":{"value":`,
      suffix: `,"unit":"${MEASURE_UNITS(fuel)[m]}"}${s === STATISTIC_KEYS.length - 1 ? `}${m < MEASURE_KEYS.length - 1 ? ',' : ''}` : ','}`,
    })),
  ),
);

/** Statistics are reported to 4 decimals, as the reference does. */
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

function lineJson(values: Float64Array, fuel: number, scenario: number): string {
  const start = (fuel * SCENARIOS.length + scenario) * LINE_VALUES;
  const parts = LINE_PARTS[fuel]!;
  let text = '{';
  for (let i = 0; i < LINE_VALUES; i++) {
    const value = values[start + i]!;
    if (Number.isNaN(value)) return 'null';
    text += parts[i]!.prefix + String(round4(value)) + parts[i]!.suffix;
  }
  return `${text}}`;
}

export interface SavingsContext {
  /** `"rates":{…},"emissions_factors":{…}` of the location, encoded (UTF-8). */
  ratesAndFactorsJson: Buffer;
  /** `"model":{…}`, encoded (UTF-8). */
  modelJson: Buffer;
  estimateType: (typeof ESTIMATE_TYPES)[number];
}

/** A JSON fragment encoded once, for `SavingsContext`. */
export const encodedFragment = (json: string): Buffer => Buffer.from(json, 'utf8');

/** One answer as JSON bytes. A baseline request's upgrade and delta lines are absent, so they are null. */
export function savingsBody(answer: ClusterAnswer, context: SavingsContext): Buffer {
  const fuelResults = RESULT_FUELS.map(
    (fuel, f) =>
      `"${fuel}":{"baseline":${lineJson(answer.values, f, 0)},"upgrade":${lineJson(answer.values, f, 1)},` +
      `"delta":${lineJson(answer.values, f, 2)}}`,
  ).join(',');
  const { num_samples, num_excluded_samples } = answer.counts;
  // Both ASCII (keys, units, enum values, numbers): latin1 writes them byte for byte, as UTF-8 would.
  const head = `{"fuel_results":{${fuelResults}},`;
  const middle =
    `,"sampling_details":{"num_samples":${num_samples},"num_excluded_samples":${num_excluded_samples}},` +
    `"estimate_type":"${context.estimateType}",`;
  const { ratesAndFactorsJson, modelJson } = context;
  const body = Buffer.allocUnsafe(
    head.length + ratesAndFactorsJson.length + middle.length + modelJson.length + 1,
  );
  let at = body.write(head, 0, 'latin1');
  at += ratesAndFactorsJson.copy(body, at);
  at += body.write(middle, at, 'latin1');
  at += modelJson.copy(body, at);
  body[at] = 0x7d; // }
  return body;
}
