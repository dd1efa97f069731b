import { statesQuerySchema, statesResponseSchema } from '../../schemas/incentives/api.ts';
import type { RouteGroup, RouteGroupContext, ZodApp } from '../route-group.ts';
import { errors } from '../errors.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { openGeocoder } from '../geocoding/open-geocoder.ts';
import { sendJson } from '../http/send-json.ts';
import { languageOf } from '../http/validation-messages.ts';
import { registerCalculatorRoute } from './calculator-route.ts';
import type { IncentivesData } from './incentives-data.ts';
import { registerIncentivesListRoute } from './incentives-list-route.ts';
import { incentivesLoader } from './incentives-loader.ts';
import { registerLoanProgramsRoute, registerLocationRoutes } from './location-routes.ts';
import { messages } from './messages.ts';

export interface IncentivesApiOptions {
  /** Defaults to the geocoder the configuration names. */
  geocoder?: Geocoder;
}

/** GET /api/v1/states: the rollout status of every state, and the retired v0 routes. */
function registerStatesAndRetiredRoutes(app: ZodApp, ctx: RouteGroupContext<IncentivesData>): void {
  app.get(
    '/api/v1/states',
    {
      schema: {
        summary: 'Rollout status of every state and territory',
        operationId: 'getStateStatus',
        querystring: statesQuerySchema,
        response: { 200: statesResponseSchema },
      },
    },
    async (request, reply) => {
      const { statesJson } = ctx.data(request);
      return sendJson(reply, request.query.include_beta_states ? statesJson.withBeta : statesJson.reference);
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
        throw errors.badRequest(messages[languageOf(request.query)].endpointGone);
      },
    );
  }
}

/**
 * The incentives API: calculator, utilities, programs, the incentives list, loan programs, states, and the
 * retired v0 routes. The routes live in their own files; what they decide in theirs.
 */
export function createIncentivesApi(options: IncentivesApiOptions = {}): RouteGroup<IncentivesData> {
  return {
    loader: incentivesLoader,
    register(app: ZodApp, ctx: RouteGroupContext<IncentivesData>) {
      const geocoder = options.geocoder ?? openGeocoder(ctx.config);
      registerCalculatorRoute(app, ctx, geocoder);
      registerLocationRoutes(app, ctx, geocoder);
      registerIncentivesListRoute(app, ctx);
      registerLoanProgramsRoute(app, ctx, geocoder);
      registerStatesAndRetiredRoutes(app, ctx);
    },
  };
}
