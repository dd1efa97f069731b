import {
  HEALTH_METRIC_NAMES,
  RATE_HOUSEHOLDS,
  healthCountiesQuerySchema,
  healthCountiesResponseSchema,
  type HealthCountyRate,
} from '../../schemas/health-api.ts';
import { HEALTH_UPGRADES } from '../../schemas/health-data.ts';
import { DEFAULT_GRID_EMISSIONS } from '../../schemas/rem-data.ts';
import type { ApiModuleContext, ZodApp } from '../api-module.ts';
import { errorBodySchema } from '../errors.ts';
import { roundedTo } from '../http/json-bytes.ts';
import { sendJson } from '../http/send-json.ts';
import { IMPACT_DECIMALS } from './health-answer.ts';
import {
  ALL_BINS,
  ALL_HOUSING,
  HOUSEHOLDS,
  IMPACT_MEASURES,
  LOW_MEASURES,
  slotsOf,
  sumOver,
  upgradeAt,
  type HealthData,
  type HealthSnapshot,
} from './health-data.ts';
import { readyHealthData } from './health-request.ts';
import { healthMessages } from './messages.ts';

const DEATHS = HEALTH_METRIC_NAMES.indexOf('avoided_premature_mortality_incidence');
const TOTAL = slotsOf(ALL_BINS, ALL_HOUSING);

/**
 * Every county's avoided deaths for one upgrade, as counts (the numbers the POST route answers for the
 * county) and as rates per 100,000 households. The rates are taken from the unrounded sums: most counties
 * avoid a few hundredths of a death a year, so a rate from the 2-decimal count would be mostly rounding.
 */
export function healthCountyRates(
  data: HealthData,
  upgrade: (typeof HEALTH_UPGRADES)[number],
): HealthCountyRate[] {
  const { areas, values } = data.counties;
  const u = HEALTH_UPGRADES.indexOf(upgrade);
  const rate = (deaths: number, households: number) =>
    roundedTo(households > 0 ? (deaths / households) * RATE_HOUSEHOLDS : 0, IMPACT_DECIMALS);
  return areas.map((area, position) => {
    const base = upgradeAt(position, u);
    const households = sumOver(values, base, TOTAL, HOUSEHOLDS);
    const central = sumOver(values, base, TOTAL, IMPACT_MEASURES[DEATHS]!);
    const low = sumOver(values, base, TOTAL, LOW_MEASURES[DEATHS]!);
    return {
      county_fips: area.fips,
      county_name: area.name,
      state_abbreviation: area.state,
      number_of_households: households,
      impact: roundedTo(central, IMPACT_DECIMALS),
      impact_low: roundedTo(low, IMPACT_DECIMALS),
      impact_per_100k_households: rate(central, households),
      impact_low_per_100k_households: rate(low, households),
    };
  });
}

/** GET /api/v2/etools/health-impacts/counties: every county at once, for a map. */
export function registerHealthCountiesRoute(app: ZodApp, ctx: ApiModuleContext<HealthSnapshot>): void {
  app.get(
    '/api/v2/etools/health-impacts/counties',
    {
      schema: {
        summary: 'Premature deaths avoided a year in every county, as counts and per 100,000 households',
        description:
          'One row per county of the snapshot’s health rollup (all floor-area bins and both housing ' +
          'types), for one upgrade: the central and low estimates of avoided premature deaths, as the ' +
          'POST route answers them for the county (on its default, long-run grid), and per 100,000 of the ' +
          'households the rollup counts. What the /explore map draws.',
        operationId: 'getHealthCounties',
        querystring: healthCountiesQuerySchema,
        response: {
          200: healthCountiesResponseSchema,
          503: errorBodySchema.describe(
            'No snapshot, or the snapshot has no health impacts yet (with Retry-After)',
          ),
        },
      },
    },
    async (request, reply) => {
      const { upgrade, language } = request.query;
      const data = readyHealthData(ctx.data(request), healthMessages[language], ctx.precompute())[
        DEFAULT_GRID_EMISSIONS
      ];
      // The model label is encoded once per snapshot; the rows are few enough to stringify (answers are cached).
      const head = JSON.stringify({
        upgrade,
        metric: HEALTH_METRIC_NAMES[DEATHS],
        units: {
          impact: 'deaths_per_year',
          impact_per_100k_households: 'deaths_per_100k_households_per_year',
        },
        counties: healthCountyRates(data, upgrade),
      });
      return sendJson(
        reply,
        Buffer.concat([Buffer.from(`${head.slice(0, -1)},`), data.modelJson, Buffer.from('}')]),
      );
    },
  );
}
