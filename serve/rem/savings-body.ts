import type { ESTIMATE_TYPES } from '../../schemas/rem-api.ts';
import { RESULT_FUELS, SCENARIOS } from '../../schemas/rem-data.ts';
import { JsonBytesWriter, encodedFragment } from '../http/json-bytes.ts';
import { ENERGY_UNITS, LINE_VALUES, type ClusterAnswer } from './cluster-statistics-store.ts';

/**
 * The `Savings` JSON of one answer, written as bytes from a slot's numbers and pre-encoded fragments:
 * every key, unit and the location's rates and emission factors are fixed, so an answer costs 180
 * numbers written as digits and ~200 copies of fragments, with no string made per number (see
 * JsonBytesWriter). The fragments around the numbers are ASCII; the location's and the model's (the
 * model statement has typographic quotes) are UTF-8, encoded once per snapshot.
 */

const MEASURE_UNITS = (fuel: (typeof RESULT_FUELS)[number]) => [ENERGY_UNITS[fuel], 'kgCO2e', '$'] as const;
const MEASURE_KEYS = ['energy', 'emissions', 'cost'] as const;
const STATISTIC_KEYS = ['mean', 'median', 'percentile_20', 'percentile_80'] as const;
/** Statistics are reported to 4 decimals, as the reference does. */
export const STATISTIC_DECIMALS = 4;

/**
 * Per result fuel, the fragments of a line that has its numbers: `open`, then each number followed by
 * `after[i]` (its unit and the next number's keys; the last one closes the line).
 */
const LINE_FRAGMENTS = RESULT_FUELS.map((fuel) => {
  const parts = MEASURE_KEYS.flatMap((measure, m) =>
    STATISTIC_KEYS.map((statistic, s) => ({
      prefix: `${s === 0 ? `"${measure}":{` : ''}"${statistic}":{"value":`,
      suffix: `,"unit":"${MEASURE_UNITS(fuel)[m]}"}${s === STATISTIC_KEYS.length - 1 ? `}${m < MEASURE_KEYS.length - 1 ? ',' : ''}` : ','}`,
    })),
  );
  return {
    open: encodedFragment(`{${parts[0]!.prefix}`),
    after: parts.map((part, i) => encodedFragment(part.suffix + (parts[i + 1]?.prefix ?? '}'))),
  };
});

/** Before each (fuel, scenario) line: the keys that open it, and the previous fuel's close. */
const BEFORE_LINE = RESULT_FUELS.map((fuel, f) =>
  SCENARIOS.map((scenario, s) =>
    encodedFragment(
      s === 0 ? `${f === 0 ? '{"fuel_results":{' : '},'}"${fuel}":{"${scenario}":` : `,"${scenario}":`,
    ),
  ),
);
const AFTER_LINES = encodedFragment('}},');
const NULL = encodedFragment('null');
const SAMPLES_OPEN = encodedFragment(',"sampling_details":{"num_samples":');
const EXCLUDED_OPEN = encodedFragment(',"num_excluded_samples":');
const ESTIMATE_TYPE_OPEN = encodedFragment('},"estimate_type":"');
const ESTIMATE_TYPE_CLOSE = encodedFragment('",');
const CLOSE = encodedFragment('}');

/** Answers are written one at a time, synchronously: one scratch buffer serves them all. */
const writer = new JsonBytesWriter();

function writeLine(values: Float64Array, fuel: number, scenario: number): void {
  const start = (fuel * SCENARIOS.length + scenario) * LINE_VALUES;
  for (let i = 0; i < LINE_VALUES; i++) {
    if (Number.isNaN(values[start + i])) {
      writer.bytes(NULL);
      return;
    }
  }
  const { open, after } = LINE_FRAGMENTS[fuel]!;
  writer.bytes(open);
  for (let i = 0; i < LINE_VALUES; i++)
    writer.rounded(values[start + i]!, STATISTIC_DECIMALS).bytes(after[i]!);
}

export interface SavingsContext {
  /** `"rates":{…},"emissions_factors":{…}` of the location, encoded (UTF-8). */
  ratesAndFactorsJson: Buffer;
  /** `"model":{…}`, encoded (UTF-8). */
  modelJson: Buffer;
  estimateType: (typeof ESTIMATE_TYPES)[number];
}

/** One answer as JSON bytes. A baseline request's upgrade and delta lines are absent, so they are null. */
export function savingsBody(answer: ClusterAnswer, context: SavingsContext): Buffer {
  writer.begin();
  for (let f = 0; f < RESULT_FUELS.length; f++) {
    for (let s = 0; s < SCENARIOS.length; s++) {
      writer.bytes(BEFORE_LINE[f]![s]!);
      writeLine(answer.values, f, s);
    }
  }
  const { num_samples, num_excluded_samples } = answer.counts;
  return writer
    .bytes(AFTER_LINES)
    .bytes(context.ratesAndFactorsJson)
    .bytes(SAMPLES_OPEN)
    .number(num_samples)
    .bytes(EXCLUDED_OPEN)
    .number(num_excluded_samples)
    .bytes(ESTIMATE_TYPE_OPEN)
    .ascii(context.estimateType)
    .bytes(ESTIMATE_TYPE_CLOSE)
    .bytes(context.modelJson)
    .bytes(CLOSE)
    .finish();
}
