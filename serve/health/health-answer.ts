import {
  FEW_HOUSEHOLDS,
  HEALTH_METRICS,
  HEALTH_METRIC_NAMES,
  type HealthImpactsRequest,
} from '../../schemas/health-api.ts';
import { HEALTH_UPGRADES, SQFT_BINS } from '../../schemas/health-data.ts';
import { LANGUAGES, type Language } from '../../schemas/incentives/enums.ts';
import { JsonBytesWriter, encodedFragment, type LentAnswer } from '../http/json-bytes.ts';
import { ALL_BINS, valueAt, type HealthData } from './health-data.ts';
import type { HealthAreas } from './health-request.ts';
import { healthMessages } from './messages.ts';

/** Impacts are reported to 2 decimals (halves toward +∞, as Math.round does). */
const DECIMALS = 2;

// A row is written as: its area's opening columns, HEADS (upgrade and bin columns, then the households'
// key), the households, the metric's opening, the impact, and TAILS (units, warnings, closing brace). The
// constant parts between two numbers are one fragment each, encoded once here: a Texas answer is 254 rows,
// and copying ten small fragments per row was a third of the answer's CPU.

/** Index of HEADS' upgrade slot when the rows have no `upgrade` column (one upgrade asked). */
const NO_UPGRADE = HEALTH_UPGRADES.length;

/** HEADS[upgrade slot][bin slot]: `"upgrade":"…",` (several upgrades) `"in_sqft_bin":"…",` (grouped) `"number_of_households":`. */
const HEADS = [...HEALTH_UPGRADES, null].map((upgrade) =>
  [...SQFT_BINS, null].map((bin) =>
    encodedFragment(
      `${upgrade === null ? '' : `"upgrade":"${upgrade}",`}${bin === null ? '' : `"in_sqft_bin":"${bin}",`}"number_of_households":`,
    ),
  ),
);

/** Per metric, what comes between the households and the impact. */
const METRIC_STARTS = HEALTH_METRIC_NAMES.map((metric) => encodedFragment(`,"metric":"${metric}","impact":`));

/** TAILS[language][metric][few households ? 1 : 0]: `,"units":"…","warnings":…}`. */
const TAILS = Object.fromEntries(
  LANGUAGES.map((language) => {
    const fewHouseholds = JSON.stringify(
      healthMessages[language].fewHouseholds(FEW_HOUSEHOLDS.toLocaleString(language)),
    );
    return [
      language,
      HEALTH_METRIC_NAMES.map((metric) =>
        [null, fewHouseholds].map((warnings) =>
          encodedFragment(`,"units":"${HEALTH_METRICS[metric].units}","warnings":${warnings ?? 'null'}}`),
        ),
      ),
    ];
  }),
) as Record<Language, Buffer[][]>;

const DATA_OPEN = encodedFragment('{"data":[');
const COMMA = 0x2c;
const DATA_CLOSE = encodedFragment('],');
const ANSWER_CLOSE = encodedFragment('}');

/** Answers are written one at a time, synchronously, each into a buffer of the writer's until it is given back. */
const writer = new JsonBytesWriter(128 * 1024);

/**
 * The answer's JSON bytes: one row per area × upgrade × bin × metric, in that order (areas in FIPS order,
 * the rest as requested), each row's columns in the reference's order, then the model label. Rows are
 * written from pre-encoded parts and the numbers' digits (see JsonBytesWriter); every number is a sum
 * of the snapshot's cells, rounded only here. The bytes are lent: give them back once the response is sent.
 */
export function healthAnswerJson(
  data: HealthData,
  request: HealthImpactsRequest,
  areas: HealthAreas,
): LentAnswer {
  const sums = areas.level === 'state' ? data.states : data.counties;
  const values = sums.values;
  const bins = request.group_by === undefined ? [ALL_BINS] : SQFT_BINS.map((_, b) => b);
  const several = request.upgrade.length > 1;
  const tails = TAILS[request.language];
  const metrics = request.metrics.map((metric) => {
    const m = HEALTH_METRIC_NAMES.indexOf(metric);
    return { measure: 1 + m, start: METRIC_STARTS[m]!, tails: tails[m]! };
  });
  writer.begin().bytes(DATA_OPEN);
  let first = true;
  for (const position of areas.positions) {
    const { rowStart } = sums.areas[position]!;
    for (const upgrade of request.upgrade) {
      const u = HEALTH_UPGRADES.indexOf(upgrade);
      const heads = HEADS[several ? u : NO_UPGRADE]!;
      for (const b of bins) {
        const head = heads[b]!;
        const households = values[valueAt(position, u, b, 0)]!;
        const few = households < FEW_HOUSEHOLDS ? 1 : 0;
        for (const metric of metrics) {
          if (!first) writer.byte(COMMA);
          first = false;
          writer
            .bytes(rowStart)
            .bytes(head)
            .number(households)
            .bytes(metric.start)
            .rounded(values[valueAt(position, u, b, metric.measure)]!, DECIMALS)
            .bytes(metric.tails[few]!);
        }
      }
    }
  }
  return writer.bytes(DATA_CLOSE).bytes(data.modelJson).bytes(ANSWER_CLOSE).lend();
}
