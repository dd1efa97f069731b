import {
  HEALTH_METRIC_NAMES,
  RATE_HOUSEHOLDS,
  healthCountiesQuerySchema,
  healthCountiesResponseSchema,
} from '../../schemas/health-api.ts';
import { HEALTH_UPGRADES } from '../../schemas/health-data.ts';
import { DEFAULT_GRID_EMISSIONS } from '../../schemas/rem-data.ts';
import type { RouteGroupContext, ZodApp } from '../route-group.ts';
import { errorBodySchema } from '../errors.ts';
import { JsonBytesWriter, encodedFragment } from '../http/json-bytes.ts';
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

const IMPACT = encodedFragment(',"impact":');
const IMPACT_LOW = encodedFragment(',"impact_low":');
const RATE = encodedFragment(',"impact_per_100k_households":');
const RATE_LOW = encodedFragment(',"impact_low_per_100k_households":');
const COMMA = 0x2c;
const ROW_END = 0x7d;

/** Map answers are written one at a time, synchronously: one scratch buffer serves them all. */
const writer = new JsonBytesWriter(1024 * 1024);

/** Deaths per 100,000 households, to IMPACT_DECIMALS (0 without households). */
const ratePer100k = (deaths: number, households: number) =>
  households > 0 ? (deaths / households) * RATE_HOUSEHOLDS : 0;

/** A number as JSON.stringify writes it (null when not finite), optionally rounded as the answers are. */
const writeNumber = (value: number, decimals?: number) => {
  if (!Number.isFinite(value)) return writer.ascii('null');
  return decimals === undefined ? writer.number(value) : writer.rounded(value, decimals);
};

/**
 * Every county's avoided deaths for one upgrade, as counts (the numbers the POST route answers for the
 * county) and as rates per 100,000 households, as the map's JSON. The rates are taken from the unrounded
 * sums: most counties avoid a few hundredths of a death a year, so a rate from the 2-decimal count would be
 * mostly rounding. Written as bytes from the counties' fragments (encoded once per snapshot): the text
 * JSON.stringify gives the same rows, in a fifth of its time.
 */
export function healthCountiesJson(data: HealthData, upgrade: (typeof HEALTH_UPGRADES)[number]): Buffer {
  const head = JSON.stringify({
    upgrade,
    metric: HEALTH_METRIC_NAMES[DEATHS],
    units: { impact: 'deaths_per_year', impact_per_100k_households: 'deaths_per_100k_households_per_year' },
    counties: [],
  });
  writer.begin().ascii(head.slice(0, -2));
  const { values } = data.counties;
  const u = HEALTH_UPGRADES.indexOf(upgrade);
  data.countyMapRowStarts.forEach((start, position) => {
    const base = upgradeAt(position, u);
    const households = sumOver(values, base, TOTAL, HOUSEHOLDS);
    const central = sumOver(values, base, TOTAL, IMPACT_MEASURES[DEATHS]!);
    const low = sumOver(values, base, TOTAL, LOW_MEASURES[DEATHS]!);
    if (position > 0) writer.byte(COMMA);
    writer.bytes(start);
    writeNumber(households).bytes(IMPACT);
    writeNumber(central, IMPACT_DECIMALS).bytes(IMPACT_LOW);
    writeNumber(low, IMPACT_DECIMALS).bytes(RATE);
    writeNumber(ratePer100k(central, households), IMPACT_DECIMALS).bytes(RATE_LOW);
    writeNumber(ratePer100k(low, households), IMPACT_DECIMALS).byte(ROW_END);
  });
  return writer.ascii('],').bytes(data.modelJson).ascii('}').finish();
}

/** GET /api/v2/etools/health-impacts/counties: every county at once, for a map. */
export function registerHealthCountiesRoute(app: ZodApp, ctx: RouteGroupContext<HealthSnapshot>): void {
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
      // One answer per validated query, whatever else a URL holds: each costs a pass over every county.
      config: { answerKey: (request) => JSON.stringify(request.query) },
    },
    async (request, reply) => {
      const { upgrade, language } = request.query;
      const data = readyHealthData(ctx.data(request), healthMessages[language], ctx.precompute())[
        DEFAULT_GRID_EMISSIONS
      ];
      return sendJson(reply, healthCountiesJson(data, upgrade));
    },
  );
}
