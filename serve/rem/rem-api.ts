import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  UPGRADES_NEEDING_WATER_HEATER_FUEL,
  remAddressQuerySchema,
  remServerVersionSchema,
  savingsSchema,
} from '../../schemas/rem-api.ts';
import { clusterId, type ClusterKey } from '../../schemas/rem-data.ts';
import type { Upgrade } from '../../schemas/rem.ts';
import type { ApiModule, ApiModuleContext, ZodApp } from '../api-module.ts';
import { errorBodySchema, errors } from '../errors.ts';
import { locateAddress, type Geocoder } from '../geocoding/geocoder.ts';
import { offlineGeocoder, openGeocoder } from '../geocoding/open-geocoder.ts';
import { RecentKeys } from '../http/recent-keys.ts';
import { validatedByHandler } from '../http/request-validation.ts';
import { parseQueryString, rawQuery } from '../incentives/query-string.ts';
import { validateQuery } from '../incentives/query-validation.ts';
import type { ServingModule } from '../snapshot/serving-module.ts';
import type { RemCountyRow } from '../../transform/tables/rem/rem-tables.ts';
import type { ClusterAnswer } from './cluster-statistics-store.ts';
import { committedSurrogate } from './committed-surrogate.ts';
import { remMessages, type RemMessages } from './messages.ts';
import { registerProfileRoute } from './profile-route.ts';
import { CONTIGUOUS_STATES, loadRemSnapshot, type RemData, type RemSnapshot } from './rem-data.ts';
import { savingsBody } from './savings-body.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
/** URLs remembered for cache admission: 256 KB, a few tens of thousands of recent addresses. */
const ASKED_BEFORE_SLOTS = 65_536;

const notFoundSchema = errorBodySchema.describe(
  'The address could not be placed in a county the data knows (field "address")',
);
const unavailableSchema = errorBodySchema.describe(
  'No snapshot, or the snapshot has no REM data yet, or the address service is down (with Retry-After)',
);

export const remServingModule: ServingModule<RemSnapshot> = {
  name: 'rem',
  // None required: a snapshot without the REM tables must still serve the incentives (see loadRemSnapshot).
  tables: [],
  load: loadRemSnapshot,
};

const badRequest = errors.badRequest;
const notFound = (message: string) => errors.notInData(message, 'address');

/** The county an address lies in: the geocoder's county, else its ZIP's; only the contiguous US and DC. */
export async function resolveCounty(
  data: RemData,
  address: string,
  geocoder: Geocoder,
  text: RemMessages,
): Promise<{ fips: string; county: RemCountyRow }> {
  const located = await locateAddress(geocoder, address, () =>
    errors.geocoderUnavailable(text.geocoderUnavailable),
  );
  if (located === null) throw notFound(text.addressNotFound);
  if (!CONTIGUOUS_STATES.has(located.state))
    throw badRequest(text.outsideContiguousUs(located.state), 'address');
  const fips = located.countyFips ?? data.zipCounties.get(located.zip);
  const county = fips === undefined ? undefined : data.counties.get(fips);
  if (fips === undefined || county === undefined) throw notFound(text.zipWithoutCounty(located.zip));
  if (!CONTIGUOUS_STATES.has(county.state))
    throw badRequest(text.outsideContiguousUs(county.state), 'address');
  return { fips, county };
}

/** The water-heater upgrade replaces a water heater whose fuel the caller must name. */
export function requireWaterHeaterFuel(
  query: { upgrade: Upgrade; water_heater_fuel?: string | undefined },
  text: RemMessages,
): void {
  if (query.water_heater_fuel === undefined && UPGRADES_NEEDING_WATER_HEATER_FUEL.includes(query.upgrade)) {
    throw errors.invalid(text.waterHeaterFuelRequired, 'water_heater_fuel');
  }
}

/**
 * A cluster's answer for an upgrade: precomputed when the snapshot has the cluster, else computed now by
 * the stage's recipe (the same answer). Null when the upgrade applies to none of its homes.
 */
export async function clusterAnswer(
  data: RemData,
  county: RemCountyRow,
  key: ClusterKey,
  upgrade: Upgrade,
  samples: number,
): Promise<ClusterAnswer | null | 'not_supported'> {
  const supported = data.clusterSupport.get(clusterId(key));
  if (supported === false) return 'not_supported';
  if (supported) return data.statistics.answer(key, upgrade);
  const computed = await data.onDemand.cluster(county, key, samples, committedSurrogate);
  return computed.supported ? (computed.answers.get(upgrade) ?? null) : 'not_supported';
}

export interface RemApiOptions {
  /** Defaults to the geocoder the configuration names. */
  geocoder?: Geocoder;
}

/**
 * The REM API: savings for an address's county cluster, for the homes matching a building profile, and
 * the versions that answer.
 */
export function createRemApi(options: RemApiOptions = {}): ApiModule<RemSnapshot> {
  return {
    serving: remServingModule,
    register(app: ZodApp, ctx: ApiModuleContext<RemSnapshot>) {
      const geocoder = options.geocoder ?? openGeocoder(ctx.config);
      const askedBefore = new RecentKeys(ASKED_BEFORE_SLOTS);
      const remData = (request: FastifyRequest, text: RemMessages): RemData => {
        const { data } = ctx.data(request);
        if (data === null) throw errors.moduleNotReady(text.remUnavailable);
        return data;
      };
      const send = (reply: FastifyReply, body: Buffer | string) => reply.type(JSON_TYPE).send(body);

      app.get(
        '/api/v1/rem/address',
        {
          // The query is parsed with the reference's rules and validated by the handler (validateQuery).
          ...validatedByHandler,
          // An external geocoder's answer can change while the snapshot does not: never kept. Else an
          // answer is kept from its URL's second request on: most addresses are asked once, and keeping
          // each of those would only churn the cache (an encoded copy per request, evicted unread).
          config: {
            cacheResponse:
              geocoder === offlineGeocoder ? (request) => askedBefore.seenBefore(request.url) : () => false,
          },
          schema: {
            summary: "Energy, emissions and bill change of an upgrade for homes like an address's",
            description:
              'Statistics over sample homes drawn for the county of the address and the fuels given ' +
              '(`estimate_type: "county_level"`): precomputed per snapshot for the states the pipeline was ' +
              'asked to (REM_STATES, and the clusters without water_heater_fuel of HEALTH_STATES); for any other ' +
              'county computed on the first request by the same recipe, ' +
              'so with the same result. Contiguous US and DC only.',
            operationId: 'getRemAddress',
            querystring: remAddressQuerySchema,
            response: { 200: savingsSchema, 404: notFoundSchema, 503: unavailableSchema },
          },
        },
        async (request, reply) => {
          const query = validateQuery(remAddressQuerySchema, parseQueryString(rawQuery(request.url)));
          const text = remMessages[query.language];
          requireWaterHeaterFuel(query, text);
          const data = remData(request, text);
          const { fips, county } = await resolveCounty(data, query.address, geocoder, text);
          const key: ClusterKey = {
            county_fips: fips,
            heating_fuel: query.heating_fuel,
            water_heater_fuel: query.water_heater_fuel ?? null,
          };
          const place = `${county.name}, ${county.state}`;
          const samples = data.samples ?? ctx.config.REM_SAMPLES;
          const answer = await clusterAnswer(data, county, key, query.upgrade, samples);
          if (answer === 'not_supported') {
            throw badRequest(
              text.buildingNotSupported(key.heating_fuel, key.water_heater_fuel, place),
              key.water_heater_fuel === null ? 'heating_fuel' : 'water_heater_fuel',
            );
          }
          if (answer === null || answer.counts.num_samples === 0) {
            throw badRequest(text.upgradeNotApplicable(place), 'upgrade');
          }
          return send(
            reply,
            savingsBody(answer, {
              ratesAndFactorsJson: data.ratesAndFactorsJson.get(county.state)!,
              modelJson: data.modelJson,
              estimateType: 'county_level',
            }),
          );
        },
      );

      registerProfileRoute(app, { remData, requireWaterHeaterFuel, send }, ctx.config);

      app.get(
        '/api/v1/rem/server_version',
        {
          schema: {
            summary: 'The model, sampler and code versions that answer REM requests',
            operationId: 'getRemServerVersion',
            response: { 200: remServerVersionSchema },
          },
        },
        async (request, reply) => send(reply, ctx.data(request).serverVersionJson),
      );
    },
  };
}
