import {
  remCountiesQuerySchema,
  remCountiesResponseSchema,
  type RemCountiesQuery,
} from '../../schemas/rem-api.ts';
import { clusterId } from '../../schemas/rem-data.ts';
import type { RouteGroupContext, ZodApp } from '../route-group.ts';
import { errorBodySchema } from '../errors.ts';
import { JsonBytesWriter, encodedFragment } from '../http/json-bytes.ts';
import { sendJson } from '../http/send-json.ts';
import { remMessages } from './messages.ts';
import type { RemData, RemSnapshot } from './rem-data.ts';
import { readyRemData, requireWaterHeaterFuel } from './savings-request.ts';
import { STATISTIC_DECIMALS } from './savings-body.ts';

const NUM_SAMPLES = encodedFragment(',"num_samples":');
const NUM_EXCLUDED = encodedFragment(',"num_excluded_samples":');
const BILL = encodedFragment(',"median_bill_change":');
const EMISSIONS = encodedFragment(',"median_emissions_change":');
const NULL = encodedFragment('null');
const COMMA = 0x2c;
const ROW_END = 0x7d;

/** Map answers are written one at a time, synchronously: one scratch buffer serves them all. */
const writer = new JsonBytesWriter(512 * 1024);

/** A median as JSON.stringify writes it rounded to STATISTIC_DECIMALS (null for none, or not a number). */
const writeMedian = (value: number | null) =>
  value === null || !Number.isFinite(value) ? writer.bytes(NULL) : writer.rounded(value, STATISTIC_DECIMALS);

/**
 * The change of every county whose cluster for these fuels the snapshot precomputed, in FIPS order: the
 * medians GET /rem/address answers for the county, from the store's in-memory medians (a national map
 * reads thousands of clusters: one slot read each took 12 ms). Clusters computed on demand are left out:
 * a map of the whole country would compute thousands of them in one request. Written as bytes (the county's fragment, then its numbers),
 * the same JSON as JSON.stringify of the rows.
 */
export function remCountiesJson(data: RemData, query: Omit<RemCountiesQuery, 'language'>): Buffer {
  const head = JSON.stringify({
    upgrade: query.upgrade,
    heating_fuel: query.heating_fuel,
    water_heater_fuel: query.water_heater_fuel ?? null,
    units: { median_bill_change: '$/year', median_emissions_change: 'kgCO2e/year' },
    counties: [],
  });
  writer.begin().ascii(head.slice(0, -2));
  let rows = 0;
  for (const { county, start } of data.countyMapRows) {
    const id = clusterId({
      county_fips: county.county_fips,
      heating_fuel: query.heating_fuel,
      water_heater_fuel: query.water_heater_fuel ?? null,
    });
    const supported = data.clusterSupport.get(id);
    if (supported === undefined) continue;
    const position = supported ? data.statistics.positionOf(id) : undefined;
    const change = position === undefined ? null : data.statistics.totalDeltaMedians(position, query.upgrade);
    const counts = change?.counts ?? { num_samples: 0, num_excluded_samples: 0 };
    const withMedians = change !== null && counts.num_samples > 0;
    if (rows++ > 0) writer.byte(COMMA);
    writer.bytes(start).ascii(supported ? 'true' : 'false');
    writer
      .bytes(NUM_SAMPLES)
      .number(counts.num_samples)
      .bytes(NUM_EXCLUDED)
      .number(counts.num_excluded_samples);
    writer.bytes(BILL);
    writeMedian(withMedians ? change.cost : null);
    writer.bytes(EMISSIONS);
    writeMedian(withMedians ? change.emissions : null);
    writer.byte(ROW_END);
  }
  return writer.ascii(']}').finish();
}

/** GET /api/v1/rem/counties: the precomputed counties' medians at once, for a map. */
export function registerCountiesRoute(app: ZodApp, ctx: RouteGroupContext<RemSnapshot>): void {
  app.get(
    '/api/v1/rem/counties',
    {
      schema: {
        summary: 'Median annual bill and emissions change of an upgrade in every precomputed county',
        description:
          'One row per county whose cluster for the fuels given the snapshot precomputed (REM_STATES): ' +
          'the median change of the annual bill and of annual emissions per home, all fuels together, ' +
          'and the sample sizes, the numbers GET /rem/address answers for an address in the county. ' +
          'What the /explore map draws.',
        operationId: 'getRemCounties',
        querystring: remCountiesQuerySchema,
        response: {
          200: remCountiesResponseSchema,
          503: errorBodySchema.describe('No snapshot, or the snapshot has no REM data yet'),
        },
      },
      // One answer per validated query, whatever else a URL holds: each costs a pass over every county.
      config: { answerKey: (request) => JSON.stringify(request.query) },
    },
    async (request, reply) => {
      const { language, ...query } = request.query;
      const text = remMessages[language];
      requireWaterHeaterFuel(query, text);
      const data = readyRemData(ctx.data(request), text, ctx.precompute());
      return sendJson(reply, remCountiesJson(data, query));
    },
  );
}
