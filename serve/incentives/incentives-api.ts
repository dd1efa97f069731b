import type { FastifyRequest } from 'fastify';
import {
  calculatorQuerySchema,
  calculatorResponseSchema,
  loanProgramsResponseSchema,
  locationQuerySchema,
  programsQuerySchema,
  programsResponseSchema,
  statesQuerySchema,
  statesResponseSchema,
  utilitiesResponseSchema,
} from '../../schemas/incentives/api.ts';
import type { ApiModule, ApiModuleContext, ZodApp } from '../api-module.ts';
import { documentedError, errors } from '../errors.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { offlineGeocoder, openGeocoder } from '../geocoding/open-geocoder.ts';
import { validatedByHandler } from '../http/request-validation.ts';
import { sendJson } from '../http/send-json.ts';
import { languageOf } from '../http/validation-messages.ts';
import { calculatorAnswerKey } from './calculator-answer-key.ts';
import { calculateIncentives } from './eligibility/calculate-incentives.ts';
import { incomeClass } from './eligibility/income-class.ts';
import { programsForLocation } from './eligibility/programs-for-location.ts';
import { utilitiesForLocation } from './eligibility/utilities-for-location.ts';
import type { IncentivesData } from './incentives-data.ts';
import { registerIncentivesListRoute } from './incentives-list-route.ts';
import { incentivesServingModule } from './incentives-serving-module.ts';
import { messages } from './messages.ts';
import { parseQueryString, rawQuery } from '../http/query-string.ts';
import { validateQuery } from '../http/query-validation.ts';
import { calculatorBody, programsBody } from './response-bodies.ts';
import {
  locationNotFound,
  requireRequestedUtilities,
  resolveLocation,
  resolveUtilities,
} from './resolve-location.ts';

/** The reference leaves its 404s out of the spec; a ZIP or address no data covers is one. */
const notFound = documentedError(
  'No data covers the location (field "location")',
  locationNotFound(messages.en.zipNotFound('10001')),
);

/** Beside the shell's "no snapshot yet", a route that locates addresses depends on the geocoder. */
const unavailable = documentedError(
  'No data snapshot is published yet, or (GEOCODER=census, `address` given) the address service is down ' +
    '(field "address"); retry after the Retry-After header\'s seconds',
  errors.geocoderUnavailable(messages.en.geocoderUnavailable),
);

/** Queries are parsed from the raw URL with the reference's qs rules (comma lists included). */
const queryOf = (request: FastifyRequest) => parseQueryString(rawQuery(request.url));

export interface IncentivesApiOptions {
  /** Defaults to the geocoder the configuration names. */
  geocoder?: Geocoder;
}

/**
 * The incentives API: calculator, utilities, programs, the incentives list, loan programs, states, and the
 * retired v0 routes.
 */
export function createIncentivesApi(options: IncentivesApiOptions = {}): ApiModule<IncentivesData> {
  return {
    serving: incentivesServingModule,
    register(app: ZodApp, ctx: ApiModuleContext<IncentivesData>) {
      const geocoder = options.geocoder ?? openGeocoder(ctx.config);
      // An address read by an external geocoder (GEOCODER=census) is placed by that service's answer,
      // which can change while the snapshot does not: such answers are computed afresh every time.
      const addressRoute = {
        config: {
          cacheResponse:
            geocoder === offlineGeocoder
              ? undefined
              : (request: FastifyRequest) => queryOf(request).address === undefined,
        },
      };

      app.get(
        '/api/v1/calculator',
        {
          ...validatedByHandler,
          config: {
            ...addressRoute.config,
            answerKey: (request: FastifyRequest) => calculatorAnswerKey(ctx.data(request), queryOf(request)),
          },
          schema: {
            summary: 'Incentives a household is eligible for at a location',
            description:
              'Federal, state, utility and local incentives, filtered by the household and location, sorted by ' +
              'payment method and amount. Arrays accept `a=x,y`, repeated keys, `a[]=` and `a[0]=`.',
            operationId: 'getCalculatedIncentives',
            querystring: calculatorQuerySchema,
            response: { 200: calculatorResponseSchema, 404: notFound, 503: unavailable },
          },
        },
        async (request, reply) => {
          const data = ctx.data(request);
          const query = validateQuery(calculatorQuerySchema, queryOf(request));
          const text = messages[query.language];
          const location = await resolveLocation(data, query, geocoder, text);
          const catalog = data.states.get(location.state);
          const utilityGeographyIds = resolveUtilities(catalog, location, query, text);
          if (location.ami80 === null || location.ami150 === null || location.evChargerEligible === null) {
            throw locationNotFound(text.noDataForLocation);
          }
          requireRequestedUtilities(query, text.utilityRequired, text);
          const calculation = calculateIncentives(
            data,
            location,
            {
              ownerStatus: query.owner_status,
              income: incomeClass(data, location, {
                income: query.household_income,
                size: query.household_size,
                taxFiling: query.tax_filing,
              }),
              authorityTypes: query.authority_types,
              items: query.items,
              includeBetaStates: query.include_beta_states,
              utilityGeographyIds,
            },
            ctx.asOfDate(request),
          );
          return sendJson(reply, calculatorBody(calculation, location, query.utility, query.language));
        },
      );

      app.get(
        '/api/v1/utilities',
        {
          ...validatedByHandler,
          ...addressRoute,
          schema: {
            summary: 'Electric and gas utilities serving a location',
            operationId: 'getUtilities',
            querystring: locationQuerySchema,
            response: { 200: utilitiesResponseSchema, 404: notFound, 503: unavailable },
          },
        },
        async (request, reply) => {
          const data = ctx.data(request);
          const query = validateQuery(locationQuerySchema, queryOf(request));
          const location = await resolveLocation(data, query, geocoder, messages[query.language]);
          return sendJson(
            reply,
            JSON.stringify(utilitiesForLocation(location, data.states.get(location.state))),
          );
        },
      );

      app.get(
        '/api/v1/incentives/programs',
        {
          ...validatedByHandler,
          ...addressRoute,
          schema: {
            summary: 'Incentive programs offered at a location',
            operationId: 'getProgramsForLocation',
            querystring: programsQuerySchema,
            response: { 200: programsResponseSchema, 404: notFound, 503: unavailable },
          },
        },
        async (request, reply) => {
          const data = ctx.data(request);
          const query = validateQuery(programsQuerySchema, queryOf(request));
          const text = messages[query.language];
          const location = await resolveLocation(data, query, geocoder, text);
          const catalog = data.states.get(location.state);
          const utilityGeographyIds = resolveUtilities(catalog, location, query, text);
          requireRequestedUtilities(query, text.utilityProgramsRequired, text);
          const geographyIds = [...utilityGeographyIds, ...location.geographyIds];
          const { programs, authorityEntries } = catalog
            ? programsForLocation(catalog, geographyIds, query.authority_types)
            : { programs: [], authorityEntries: [] };
          return sendJson(
            reply,
            programsBody(programs, authorityEntries, location, query.utility, query.language),
          );
        },
      );

      registerIncentivesListRoute(app, ctx);

      app.get(
        '/api/v1/finance/loan-programs',
        {
          ...validatedByHandler,
          ...addressRoute,
          schema: {
            summary: 'Energy loan programs available in a location’s state (beta)',
            operationId: 'getLoanProgramsForLocation',
            querystring: locationQuerySchema,
            response: { 200: loanProgramsResponseSchema, 404: notFound, 503: unavailable },
          },
        },
        async (request, reply) => {
          const data = ctx.data(request);
          const query = validateQuery(locationQuerySchema, queryOf(request));
          const location = await resolveLocation(data, query, geocoder, messages[query.language]);
          return sendJson(
            reply,
            data.states.get(location.state)?.loanProgramsJson ?? data.nationalLoanProgramsJson,
          );
        },
      );

      app.get(
        '/api/v1/states',
        {
          ...validatedByHandler,
          schema: {
            summary: 'Rollout status of every state and territory',
            operationId: 'getStateStatus',
            querystring: statesQuerySchema,
            response: { 200: statesResponseSchema },
          },
        },
        async (request, reply) => {
          const { statesJson } = ctx.data(request);
          const query = validateQuery(statesQuerySchema, queryOf(request));
          return sendJson(reply, query.include_beta_states ? statesJson.withBeta : statesJson.reference);
        },
      );

      for (const [path, operationId] of [
        ['/api/v0/calculator', 'calculator-get'],
        ['/api/v0/incentives', 'incentives-get'],
      ] as const) {
        app.get(
          path,
          { schema: { summary: 'Retired: use /api/v1', operationId, deprecated: true } },
          async (request) => {
            throw errors.badRequest(messages[languageOf(queryOf(request))].endpointGone);
          },
        );
      }
    },
  };
}
