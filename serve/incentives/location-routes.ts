import type { FastifyRequest } from 'fastify';
import {
  loanProgramsResponseSchema,
  locationQuerySchema,
  programsQuerySchema,
  programsResponseSchema,
  utilitiesResponseSchema,
} from '../../schemas/incentives/api.ts';
import type { RouteGroupContext, ZodApp } from '../route-group.ts';
import { documentedError, errors } from '../errors.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { offlineGeocoder } from '../geocoding/open-geocoder.ts';
import { sendJson } from '../http/send-json.ts';
import { omittedUtilities } from './eligibility/omitted-utilities.ts';
import { programsForLocation } from './eligibility/programs-for-location.ts';
import { utilitiesForLocation } from './eligibility/utilities-for-location.ts';
import type { IncentivesData } from './incentives-data.ts';
import { messages } from './messages.ts';
import { programsBody } from './response-bodies.ts';
import {
  locationNotFound,
  requireRequestedUtilities,
  resolveLocation,
  resolveUtilities,
} from './resolve-location.ts';

/** The reference leaves its 404s out of the spec; a ZIP or address no data covers is one. */
export const locationNotFoundResponse = documentedError(
  'No data covers the location (field "location")',
  locationNotFound(messages.en.zipNotFound('10001')),
);

/** Beside the shell's "no snapshot yet", a route that locates addresses depends on the geocoder. */
export const geocoderUnavailableResponse = documentedError(
  'No data snapshot is published yet, or (GEOCODER=census, `address` given) the address service is down ' +
    '(field "address"); retry after the Retry-After header\'s seconds',
  errors.geocoderUnavailable(messages.en.geocoderUnavailable),
);

/**
 * Whether a route that locates a ZIP or an address may keep an answer (its `keepAnswer`): an address read by
 * an external geocoder (GEOCODER=census) is placed by that service's answer, which can change while the
 * snapshot does not, so such answers are computed afresh every time.
 */
export const keepLocatedAnswer =
  (geocoder: Geocoder) =>
  (request: FastifyRequest): boolean =>
    geocoder === offlineGeocoder || (request.query as { address?: string }).address === undefined;

/** GET /api/v1/utilities and /incentives/programs: what serves a location. */
export function registerLocationRoutes(
  app: ZodApp,
  ctx: RouteGroupContext<IncentivesData>,
  geocoder: Geocoder,
): void {
  const response = { 404: locationNotFoundResponse, 503: geocoderUnavailableResponse };
  const config = { keepAnswer: keepLocatedAnswer(geocoder) };
  app.get(
    '/api/v1/utilities',
    {
      schema: {
        summary: 'Electric and gas utilities serving a location',
        operationId: 'getUtilities',
        querystring: locationQuerySchema,
        response: { 200: utilitiesResponseSchema, ...response },
      },
      config,
    },
    async (request, reply) => {
      const data = ctx.data(request);
      const { query } = request;
      const location = await resolveLocation(data, query, geocoder, messages[query.language]);
      return sendJson(reply, JSON.stringify(utilitiesForLocation(location, data.states.get(location.state))));
    },
  );

  app.get(
    '/api/v1/incentives/programs',
    {
      schema: {
        summary: 'Incentive programs offered at a location',
        operationId: 'getProgramsForLocation',
        querystring: programsQuerySchema,
        response: { 200: programsResponseSchema, ...response },
      },
      config,
    },
    async (request, reply) => {
      const data = ctx.data(request);
      const { query } = request;
      const text = messages[query.language];
      const location = await resolveLocation(data, query, geocoder, text);
      const catalog = data.states.get(location.state);
      const utilityGeographyIds = resolveUtilities(catalog, location, query, text);
      requireRequestedUtilities(query, text.utilityProgramsRequired, text);
      const offered = (utilityIds: readonly number[]) =>
        catalog
          ? programsForLocation(catalog, [...utilityIds, ...location.geographyIds], query.authority_types)
          : { programs: [], authorityEntries: [] };
      const { programs, authorityEntries } = offered(utilityGeographyIds);
      const omitted =
        catalog &&
        omittedUtilities(
          location,
          catalog,
          { given: query, answer: programs },
          (geographyId) => offered([...utilityGeographyIds, geographyId]).programs,
          () => null,
        );
      return sendJson(
        reply,
        programsBody(programs, authorityEntries, location, query.utility, query.language, omitted ?? null),
      );
    },
  );
}

/** GET /api/v1/finance/loan-programs: the energy loan programs of a location's state. */
export function registerLoanProgramsRoute(
  app: ZodApp,
  ctx: RouteGroupContext<IncentivesData>,
  geocoder: Geocoder,
): void {
  app.get(
    '/api/v1/finance/loan-programs',
    {
      schema: {
        summary: 'Energy loan programs available in a location’s state (beta)',
        operationId: 'getLoanProgramsForLocation',
        querystring: locationQuerySchema,
        response: {
          200: loanProgramsResponseSchema,
          404: locationNotFoundResponse,
          503: geocoderUnavailableResponse,
        },
      },
      config: { keepAnswer: keepLocatedAnswer(geocoder) },
    },
    async (request, reply) => {
      const data = ctx.data(request);
      const { query } = request;
      const location = await resolveLocation(data, query, geocoder, messages[query.language]);
      return sendJson(
        reply,
        data.states.get(location.state)?.loanProgramsJson ?? data.nationalLoanProgramsJson,
      );
    },
  );
}
