import {
  FEW_HOUSEHOLDS,
  HEALTH_METRICS,
  HEALTH_METRIC_NAMES,
  type HealthImpactsRequest,
} from '../../schemas/health-api.ts';
import { HEALTH_UPGRADES, SQFT_BINS } from '../../schemas/health-data.ts';
import { LANGUAGES, type Language } from '../../schemas/incentives/enums.ts';
import { JsonBytesWriter, encodedFragment } from '../http/json-bytes.ts';
import { ALL_BINS, valueAt, type HealthData } from './health-data.ts';
import type { HealthAreas } from './health-request.ts';
import { healthMessages } from './messages.ts';

/** The `warnings` value of a row with few households, JSON-encoded, per language. */
const FEW_HOUSEHOLDS_WARNING = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    encodedFragment(
      JSON.stringify(healthMessages[language].fewHouseholds(FEW_HOUSEHOLDS.toLocaleString(language))),
    ),
  ]),
) as Record<Language, Buffer>;
const NO_WARNING = encodedFragment('null');

/** Impacts are reported to 2 decimals (halves toward +∞, as Math.round does). */
const DECIMALS = 2;

const UPGRADE_COLUMNS = HEALTH_UPGRADES.map((upgrade) => encodedFragment(`"upgrade":"${upgrade}",`));
const BIN_COLUMNS = SQFT_BINS.map((bin) => encodedFragment(`"in_sqft_bin":"${bin}",`));
const NO_COLUMN = encodedFragment('');
const HOUSEHOLDS_KEY = encodedFragment('"number_of_households":');
/** Per metric: what comes between the households and the impact, and between the impact and the warnings. */
const METRIC_PARTS = HEALTH_METRIC_NAMES.map((metric) => ({
  start: encodedFragment(`,"metric":"${metric}","impact":`),
  units: encodedFragment(`,"units":"${HEALTH_METRICS[metric].units}","warnings":`),
}));
const DATA_OPEN = encodedFragment('{"data":[');
const ROW_SEPARATOR = encodedFragment(',');
const ROW_CLOSE = encodedFragment('}');
const DATA_CLOSE = encodedFragment('],');
const ANSWER_CLOSE = encodedFragment('}');

/** Answers are written one at a time, synchronously: one scratch buffer serves them all. */
const writer = new JsonBytesWriter(128 * 1024);

/**
 * The answer's JSON bytes: one row per area × upgrade × bin × metric, in that order (areas in FIPS order,
 * the rest as requested), each row's columns in the reference's order, then the model label. Rows are
 * written from pre-encoded parts and the numbers' digits (see JsonBytesWriter); every number is a sum
 * of the snapshot's cells, rounded only here.
 */
export function healthAnswerJson(
  data: HealthData,
  request: HealthImpactsRequest,
  areas: HealthAreas,
): Buffer {
  const sums = areas.level === 'state' ? data.states : data.counties;
  const bins = request.group_by === undefined ? [ALL_BINS] : SQFT_BINS.map((_, b) => b);
  const several = request.upgrade.length > 1;
  const metrics = request.metrics.map((metric) => {
    const m = HEALTH_METRIC_NAMES.indexOf(metric);
    return { measure: 1 + m, ...METRIC_PARTS[m]! };
  });
  const warning = FEW_HOUSEHOLDS_WARNING[request.language];
  writer.begin().bytes(DATA_OPEN);
  let first = true;
  for (const position of areas.positions) {
    const { rowStart } = sums.areas[position]!;
    for (const upgrade of request.upgrade) {
      const u = HEALTH_UPGRADES.indexOf(upgrade);
      const upgradeColumn = several ? UPGRADE_COLUMNS[u]! : NO_COLUMN;
      for (const b of bins) {
        const binColumn = b === ALL_BINS ? NO_COLUMN : BIN_COLUMNS[b]!;
        const households = sums.values[valueAt(position, u, b, 0)]!;
        const warnings = households < FEW_HOUSEHOLDS ? warning : NO_WARNING;
        for (const metric of metrics) {
          if (!first) writer.bytes(ROW_SEPARATOR);
          first = false;
          writer
            .bytes(rowStart)
            .bytes(upgradeColumn)
            .bytes(binColumn)
            .bytes(HOUSEHOLDS_KEY)
            .number(households)
            .bytes(metric.start)
            .rounded(sums.values[valueAt(position, u, b, metric.measure)]!, DECIMALS)
            .bytes(metric.units)
            .bytes(warnings)
            .bytes(ROW_CLOSE);
        }
      }
    }
  }
  return writer.bytes(DATA_CLOSE).bytes(data.modelJson).bytes(ANSWER_CLOSE).finish();
}
