import { remAddressQuerySchema, savingsSchema, type RemAddressQuery } from '../../schemas/rem-api.ts';
import type { ClusterKey } from '../../schemas/rem-data.ts';
import type { RouteGroupContext, ZodApp } from '../route-group.ts';
import { errorBodySchema, errors } from '../errors.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { offlineGeocoder } from '../geocoding/open-geocoder.ts';
import { sendJson } from '../http/send-json.ts';
import { addressAnswerKey } from './address-answer-key.ts';
import { clusterAnswer } from './cluster-answer.ts';
import { remMessages } from './messages.ts';
import { placeKey, type RemSnapshot } from './rem-data.ts';
import { resolveCounty } from './resolve-county.ts';
import { buildingNotSupported, modelWork, readyRemData, requireWaterHeaterFuel } from './savings-request.ts';
import { savingsBody } from './savings-body.ts';

const notFoundSchema = errorBodySchema.describe(
  'The address could not be placed in a county the data knows (field "address")',
);
const unavailableSchema = errorBodySchema.describe(
  'No snapshot, or the snapshot has no REM data yet, or the address service is down, or too many clusters ' +
    'not precomputed are waiting to be computed (with Retry-After)',
);

/**
 * GET /api/v1/rem/address: the precomputed (or computed on demand, by the same recipe) statistics of the
 * cluster of the address's county and the fuels given.
 */
export function registerAddressRoute(
  app: ZodApp,
  ctx: RouteGroupContext<RemSnapshot>,
  geocoder: Geocoder,
): void {
  app.get(
    '/api/v1/rem/address',
    {
      schema: {
        summary: "Energy, emissions and bill change of an upgrade for homes like an address's",
        description:
          'Statistics over sample homes drawn for the county of the address and the fuels given ' +
          '(`estimate_type: "county_level"`): precomputed per snapshot for the states the pipeline was ' +
          'asked to (REM_STATES, and the clusters without water_heater_fuel of HEALTH_STATES); for any other ' +
          'county computed on the first request by the same recipe, ' +
          'so with the same result. Electricity is counted on the long-run grid unless grid_emissions=' +
          'current_average asks for today’s (computed on request). Contiguous US and DC only.',
        operationId: 'getRemAddress',
        querystring: remAddressQuerySchema,
        response: { 200: savingsSchema, 404: notFoundSchema, 503: unavailableSchema },
      },
      // Every address of a county with the same fuels gets one answer (addressAnswerKey); an external
      // geocoder's answer can change while the snapshot does not: never kept.
      config: {
        answerKey: (request) =>
          geocoder === offlineGeocoder
            ? addressAnswerKey(ctx.data(request), request.query as RemAddressQuery)
            : undefined,
        keepAnswer: () => geocoder === offlineGeocoder,
      },
    },
    async (request, reply) => {
      const { query } = request;
      const text = remMessages[query.language];
      requireWaterHeaterFuel(query, text);
      const data = readyRemData(ctx.data(request), text, ctx.precompute());
      const { fips, county } = await resolveCounty(data, query, geocoder, text);
      const key: ClusterKey = {
        county_fips: fips,
        heating_fuel: query.heating_fuel,
        water_heater_fuel: query.water_heater_fuel ?? null,
      };
      const place = `${county.name}, ${county.state}`;
      const samples = data.samples ?? ctx.config.REM_SAMPLES;
      const basis = query.grid_emissions;
      const answer = await modelWork(clusterAnswer(data, county, key, query.upgrade, samples, basis), text);
      if (answer === 'not_supported') {
        throw buildingNotSupported(key.heating_fuel, key.water_heater_fuel, place, text);
      }
      if (answer === null || answer.counts.num_samples === 0) {
        throw errors.badRequest(text.upgradeNotApplicable(place), 'upgrade');
      }
      return sendJson(
        reply,
        savingsBody(answer, {
          ratesAndFactorsJson: data.ratesAndFactorsJson.get(placeKey(county, basis))!,
          modelJson: data.modelJson,
          estimateType: 'county_level',
        }),
      );
    },
  );
}
