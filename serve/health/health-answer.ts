import {
  FEW_HOUSEHOLDS,
  HEALTH_METRICS,
  HEALTH_METRIC_NAMES,
  type HealthImpactsRequest,
} from '../../schemas/health-api.ts';
import { HEALTH_UPGRADES, SQFT_BINS } from '../../schemas/health-data.ts';
import { LANGUAGES, type Language } from '../../schemas/incentives/enums.ts';
import { ALL_BINS, valueAt, type HealthData } from './health-data.ts';
import type { HealthAreas } from './health-request.ts';
import { healthMessages } from './messages.ts';

/** The `warnings` value of a row with few households, JSON-encoded, per language. */
const FEW_HOUSEHOLDS_WARNING = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    JSON.stringify(healthMessages[language].fewHouseholds(FEW_HOUSEHOLDS.toLocaleString(language))),
  ]),
) as Record<Language, string>;

/** To 2 decimals (halves toward +∞, as Math.round does). */
const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The answer's JSON: one row per area × upgrade × bin × metric, in that order (areas in FIPS order, the
 * rest as requested), each row's columns in the reference's order, then the model label. Rows are written
 * as text from pre-encoded parts; every number is a sum of the snapshot's cells, rounded only here.
 */
export function healthAnswerJson(
  data: HealthData,
  request: HealthImpactsRequest,
  areas: HealthAreas,
): string {
  const sums = areas.level === 'state' ? data.states : data.counties;
  const bins = request.group_by === undefined ? [ALL_BINS] : SQFT_BINS.map((_, b) => b);
  const several = request.upgrade.length > 1;
  const metrics = request.metrics.map((metric) => ({
    measure: 1 + HEALTH_METRIC_NAMES.indexOf(metric),
    start: `"metric":"${metric}","impact":`,
    units: `,"units":"${HEALTH_METRICS[metric].units}","warnings":`,
  }));
  const warning = FEW_HOUSEHOLDS_WARNING[request.language];
  const rows: string[] = [];
  for (const position of areas.positions) {
    const { rowStart } = sums.areas[position]!;
    for (const upgrade of request.upgrade) {
      const u = HEALTH_UPGRADES.indexOf(upgrade);
      const upgradeColumn = several ? `"upgrade":"${upgrade}",` : '';
      for (const b of bins) {
        const binColumn = b === ALL_BINS ? '' : `"in_sqft_bin":"${SQFT_BINS[b]}",`;
        const households = sums.values[valueAt(position, u, b, 0)]!;
        const head = `${rowStart}${upgradeColumn}${binColumn}"number_of_households":${households},`;
        const warnings = households < FEW_HOUSEHOLDS ? warning : 'null';
        for (const metric of metrics) {
          const impact = round2(sums.values[valueAt(position, u, b, metric.measure)]!);
          rows.push(`${head}${metric.start}${impact}${metric.units}${warnings}}`);
        }
      }
    }
  }
  return `{"data":[${rows.join(',')}],${data.modelJson}}`;
}
