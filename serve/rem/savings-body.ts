import type { ESTIMATE_TYPES } from '../../schemas/rem-api.ts';
import { RESULT_FUELS, SCENARIOS } from '../../schemas/rem-data.ts';
import { ENERGY_UNITS, LINE_VALUES, type ClusterAnswer } from './cluster-statistics-store.ts';

/**
 * The `Savings` JSON of one answer, written as text from a slot's numbers and pre-encoded fragments:
 * every key, unit and the location's rates and emission factors are fixed strings, so an answer costs
 * 180 number formats and one join (no object graph, no schema walk).
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
  /** `"rates":{…},"emissions_factors":{…}` of the location, pre-encoded. */
  ratesAndFactorsJson: string;
  /** `"model":{…}`, pre-encoded. */
  modelJson: string;
  estimateType: (typeof ESTIMATE_TYPES)[number];
}

/** One answer as JSON text. A baseline request's upgrade and delta lines are absent, so they are null. */
export function savingsJson(answer: ClusterAnswer, context: SavingsContext): string {
  const fuelResults = RESULT_FUELS.map(
    (fuel, f) =>
      `"${fuel}":{"baseline":${lineJson(answer.values, f, 0)},"upgrade":${lineJson(answer.values, f, 1)},` +
      `"delta":${lineJson(answer.values, f, 2)}}`,
  ).join(',');
  const { num_samples, num_excluded_samples } = answer.counts;
  return (
    `{"fuel_results":{${fuelResults}},${context.ratesAndFactorsJson},` +
    `"sampling_details":{"num_samples":${num_samples},"num_excluded_samples":${num_excluded_samples}},` +
    `"estimate_type":"${context.estimateType}",${context.modelJson}}`
  );
}
