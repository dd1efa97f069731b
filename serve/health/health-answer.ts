import {
  FEW_HOUSEHOLDS,
  HEALTH_METRICS,
  HEALTH_METRIC_NAMES,
  type HealthImpactsRequest,
} from '../../schemas/health-api.ts';
import { HEALTH_UPGRADES, HOUSING_TYPES, SQFT_BINS } from '../../schemas/health-data.ts';
import { LANGUAGES, type Language } from '../../schemas/incentives/enums.ts';
import { JsonBytesWriter, encodedFragment } from '../http/json-bytes.ts';
import {
  ALL_BINS,
  ALL_HOUSING,
  HOUSEHOLDS,
  IMPACT_MEASURES,
  LOW_MEASURES,
  multiFamilySlotsOf,
  slotsOf,
  sumOver,
  upgradeAt,
  type HealthData,
} from './health-data.ts';
import type { HealthAreas } from './health-request.ts';
import { healthMessages } from './messages.ts';

/** Impacts are reported to 2 decimals (halves toward +∞, as Math.round does). */
export const IMPACT_DECIMALS = 2;

// A row is written as: its area's opening columns, HEADS (upgrade, bin and housing-type columns, then the
// households' key), the households, the metric's opening, the impact, for a mortality metric LOW_START and
// the low impact, and TAILS (units, warnings, closing brace). The constant parts between two numbers are one
// fragment each, encoded once here: a Texas answer is 254 rows, and copying ten small fragments per row was a
// third of the answer's CPU.

/** Index of HEADS' upgrade choice when the rows have no `upgrade` column (one upgrade asked). */
const NO_UPGRADE = HEALTH_UPGRADES.length;

/**
 * HEADS[upgrade choice][bin choice][housing choice]: `"upgrade":"…",` (several upgrades) `"in_sqft_bin":"…",`
 * (grouped by bin) `"in_housing_type":"…",` (grouped by housing type) `"number_of_households":`.
 */
const HEADS = [...HEALTH_UPGRADES, null].map((upgrade) =>
  [...SQFT_BINS, null].map((bin) =>
    [...HOUSING_TYPES, null].map((housing) =>
      encodedFragment(
        (upgrade === null ? '' : `"upgrade":"${upgrade}",`) +
          (bin === null ? '' : `"in_sqft_bin":"${bin}",`) +
          (housing === null ? '' : `"in_housing_type":"${housing}",`) +
          '"number_of_households":',
      ),
    ),
  ),
);

/** The bin and housing-type choices of an answer's rows, grouped or not. */
const EACH_BIN = SQFT_BINS.map((_, b) => b);
const ONLY_ALL_BINS = [ALL_BINS];
const EACH_HOUSING = HOUSING_TYPES.map((_, h) => h);
const ONLY_ALL_HOUSING = [ALL_HOUSING];

/** Per metric, what comes between the households and the impact. */
const METRIC_STARTS = HEALTH_METRIC_NAMES.map((metric) => encodedFragment(`,"metric":"${metric}","impact":`));
/** What comes between a mortality metric's impact and its low impact. */
const LOW_START = encodedFragment(',"impact_low":');

/** TAILS[language][metric][few households ? 1 : 0]: `,"units":"…","warnings":…}`. */
const TAILS = Object.fromEntries(
  LANGUAGES.map((language) => {
    const few = JSON.stringify(
      healthMessages[language].fewHouseholds(FEW_HOUSEHOLDS.toLocaleString(language)),
    );
    return [
      language,
      HEALTH_METRIC_NAMES.map((metric) =>
        ['null', few].map((json) =>
          encodedFragment(`,"units":"${HEALTH_METRICS[metric].units}","warnings":${json}}`),
        ),
      ),
    ];
  }),
) as Record<Language, Buffer[][]>;

/**
 * ANSWER_WARNINGS[language][some row includes multi-family households ? 1 : 0]: the answer's own cautions.
 * The multi-family approximation is said once per answer rather than on nearly every row, which would double a
 * county answer's size (a Texas answer of 254 rows would pass 100 kB).
 */
const ANSWER_WARNINGS = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    [[], [healthMessages[language].multiFamilyApproximated]].map((warnings) =>
      encodedFragment(`"warnings":${JSON.stringify(warnings)},`),
    ),
  ]),
) as Record<Language, Buffer[]>;

const DATA_OPEN = encodedFragment('{"data":[');
const COMMA = 0x2c;
const DATA_CLOSE = encodedFragment('],');
const ANSWER_CLOSE = encodedFragment('}');

/** Answers are written one at a time, synchronously: one scratch buffer serves them all. */
const writer = new JsonBytesWriter(128 * 1024);

/**
 * The answer's JSON bytes: one row per area × upgrade × bin × housing type × metric, in that order (areas
 * in FIPS order, bins and housing types in their declared order, upgrades and metrics as requested), each
 * row's columns in the reference's order, then the answer's warnings and the model label. Grouped, a group without households has no
 * row. Rows are written from pre-encoded parts and the numbers (see JsonBytesWriter); every number is a
 * sum of the snapshot's cells, rounded only here.
 */
export function healthAnswerJson(
  data: HealthData,
  request: HealthImpactsRequest,
  areas: HealthAreas,
): Buffer {
  const sums = areas.level === 'state' ? data.states : data.counties;
  const values = sums.values;
  const groupBy = request.group_by ?? [];
  const byBin = groupBy.includes('house_size_square_feet_binned');
  const byHousing = groupBy.includes('housing_type');
  const grouped = byBin || byHousing;
  const bins = byBin ? EACH_BIN : ONLY_ALL_BINS;
  const housings = byHousing ? EACH_HOUSING : ONLY_ALL_HOUSING;
  const several = request.upgrade.length > 1;
  const tails = TAILS[request.language];
  const metrics = request.metrics.map((metric) => {
    const m = HEALTH_METRIC_NAMES.indexOf(metric);
    return { impact: IMPACT_MEASURES[m]!, low: LOW_MEASURES[m]!, start: METRIC_STARTS[m]!, tails: tails[m]! };
  });
  writer.begin().bytes(DATA_OPEN);
  let first = true;
  let includesMultiFamily = false;
  for (const position of areas.positions) {
    const { rowStart } = sums.areas[position]!;
    for (const upgrade of request.upgrade) {
      const u = HEALTH_UPGRADES.indexOf(upgrade);
      const base = upgradeAt(position, u);
      const heads = HEADS[several ? u : NO_UPGRADE]!;
      for (const b of bins) {
        for (const h of housings) {
          const slots = slotsOf(b, h);
          const households = sumOver(values, base, slots, HOUSEHOLDS);
          if (grouped && households === 0) continue;
          // The answer's warning needs one such row: once found, the others are not looked for.
          if (!includesMultiFamily)
            includesMultiFamily = sumOver(values, base, multiFamilySlotsOf(b, h), HOUSEHOLDS) > 0;
          const few = households < FEW_HOUSEHOLDS ? 1 : 0;
          const head = heads[b]![h]!;
          for (const metric of metrics) {
            if (!first) writer.byte(COMMA);
            first = false;
            writer
              .bytes(rowStart)
              .bytes(head)
              .number(households)
              .bytes(metric.start)
              .rounded(sumOver(values, base, slots, metric.impact), IMPACT_DECIMALS);
            if (metric.low >= 0) {
              writer.bytes(LOW_START).rounded(sumOver(values, base, slots, metric.low), IMPACT_DECIMALS);
            }
            writer.bytes(metric.tails[few]!);
          }
        }
      }
    }
  }
  return writer
    .bytes(DATA_CLOSE)
    .bytes(ANSWER_WARNINGS[request.language][includesMultiFamily ? 1 : 0]!)
    .bytes(data.modelJson)
    .bytes(ANSWER_CLOSE)
    .finish();
}
