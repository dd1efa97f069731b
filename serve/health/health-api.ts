import {
  healthImpactsRequestSchema,
  healthImpactsResponseSchema,
  type HealthImpactsRequest,
} from '../../schemas/health-api.ts';
import type { RouteGroup, RouteGroupContext, ZodApp } from '../route-group.ts';
import { errorBodySchema } from '../errors.ts';
import { localizedValidationError } from '../http/request-validation.ts';
import { sendJson } from '../http/send-json.ts';
import { HEALTH_COUNTY_IMPACTS } from '../../data-lake/tables/health.ts';
import { tableEntries, type SnapshotLoader } from '../snapshot/snapshot-loader.ts';
import { registerHealthCountiesRoute } from './counties-route.ts';
import { healthAnswerJson } from './health-answer.ts';
import { loadHealthSnapshot, sourcesOf, type HealthSnapshot } from './health-data.ts';
import {
  fipsCodeMessage,
  healthAnswerKey,
  readyHealthData,
  requireWildcardAlone,
  resolveAreas,
} from './health-request.ts';
import { healthMessages } from './messages.ts';

/** Bodies are small lists of codes: 64 KB holds every county of every state many times over. */
export const HEALTH_BODY_LIMIT_BYTES = 64 * 1024;

export const healthLoader: SnapshotLoader<HealthSnapshot> = {
  name: 'health-impacts',
  // None required: a snapshot without the health table must still serve the other routes.
  tables: [],
  load: loadHealthSnapshot,
  // The sources are part of each answer's model description.
  madeFrom: (manifest) => [
    tableEntries(manifest, [HEALTH_COUNTY_IMPACTS]),
    sourcesOf(manifest, HEALTH_COUNTY_IMPACTS.name),
  ],
  ready: (snapshot) => snapshot.data !== null,
};

/** The health-impacts API: avoided deaths and emissions of electrifying the households of states or counties. */
export function createHealthApi(): RouteGroup<HealthSnapshot> {
  return {
    loader: healthLoader,
    register(app: ZodApp, ctx: RouteGroupContext<HealthSnapshot>) {
      app.post(
        '/api/v2/etools/health-impacts',
        {
          bodyLimit: HEALTH_BODY_LIMIT_BYTES,
          schema: {
            summary:
              'Premature deaths, their value and pollutant emissions avoided each year by electrifying households',
            description:
              'Sums of the snapshot’s county rollup (lake table `health_county_impacts`) for the states, or ' +
              'the counties of one state, asked for: one long-format row per area × upgrade × floor-area bin ' +
              '× housing type × metric (bins and housing types only as grouped). Positive `impact` = ' +
              'avoided; rows of deaths and of their value give the central mortality estimate in `impact` ' +
              'and the low one in `impact_low`. Power plants’ emissions are counted on the long-run grid ' +
              'unless `grid_emissions` asks for today’s. A repeated body is answered from the response cache (its ' +
              'ETag names the snapshot and the canonical body). Bodies over 64 KB are refused (413).',
            operationId: 'postHealthImpacts',
            body: healthImpactsRequestSchema,
            response: {
              200: healthImpactsResponseSchema,
              404: errorBodySchema.describe(
                'A contiguous state the data being served has no health impacts for (field "state_fips")',
              ),
              413: errorBodySchema.describe('The body is over 64 KB'),
              503: errorBodySchema.describe(
                'No snapshot, or the snapshot has no health impacts yet, or the states asked for (all when none are named) are still being precomputed on a fresh lake (with Retry-After)',
              ),
            },
          },
          schemaErrorFormatter: localizedValidationError(fipsCodeMessage),
          // A repeated body (in a canonical form) is answered from the response cache.
          config: { answerKey: (request) => healthAnswerKey(request.body as HealthImpactsRequest) },
        },
        async (request, reply) => {
          const { body } = request;
          const text = healthMessages[body.language];
          requireWildcardAlone(body, text);
          const precompute = ctx.precompute();
          const data = readyHealthData(ctx.data(request), text, precompute)[body.grid_emissions];
          const areas = resolveAreas(data, body, text, precompute);
          // Assembled as bytes (see healthAnswerJson): sent as they are, not through the response schema.
          return sendJson(reply, healthAnswerJson(data, body, areas));
        },
      );
      registerHealthCountiesRoute(app, ctx);
    },
  };
}
