import { incentivesListQuerySchema, incentivesListResponseSchema } from '../../schemas/incentives/api.ts';
import type { RouteGroupContext, ZodApp } from '../route-group.ts';
import { documentedError, errors } from '../errors.ts';
import { sendJson } from '../http/send-json.ts';
import { catalogPage } from './incentive-catalog.ts';
import type { IncentivesData } from './incentives-data.ts';
import { messages, type Messages } from './messages.ts';
import { decodePageToken, encodePageToken } from './page-token.ts';
import { incentivesListBody } from './response-bodies.ts';

/** A bad filter, or a page token that is not ours or belongs to a snapshot no longer served. */
const badRequest = documentedError(
  'A filter fails its schema, or `page_token` is malformed or from a snapshot no longer served (field named)',
  errors.invalid(messages.en.pageTokenStale, 'page_token'),
);

/** The catalog position a page token continues after (-1 without one), or a 400 naming `page_token`. */
function startAfter(
  pageToken: string | undefined,
  snapshotId: string,
  catalogSize: number,
  text: Messages,
): number {
  if (pageToken === undefined) return -1;
  const token = decodePageToken(pageToken);
  if (token === null || token.after >= catalogSize) {
    throw errors.invalid(text.pageTokenInvalid, 'page_token');
  }
  if (token.snapshot !== snapshotId) throw errors.invalid(text.pageTokenStale, 'page_token');
  return token.after;
}

/**
 * GET /api/v1/incentives: the snapshot's incentive catalog, filtered and paginated. A page continues
 * after the catalog position its token names, in the snapshot that gave the token: positions mean
 * nothing in another snapshot, so such a token is refused rather than silently skipping or repeating.
 */
export function registerIncentivesListRoute(app: ZodApp, ctx: RouteGroupContext<IncentivesData>): void {
  app.get(
    '/api/v1/incentives',
    {
      schema: {
        summary: 'The incentive catalog, filtered and paginated',
        description:
          'Every federal and state incentive of the data being served, with its program, dates and ' +
          'eligibility limits, whatever the date (expired and paused ones included). Ordered by state ' +
          '(federal first), authority id and incentive id. Follow `next_page_token` to the last page; ' +
          'when the data snapshot changes mid-walk, a token is refused (400, field `page_token`) and the ' +
          'walk starts again.',
        operationId: 'getIncentives',
        querystring: incentivesListQuerySchema,
        response: { 200: incentivesListResponseSchema, 400: badRequest },
      },
    },
    async (request, reply) => {
      const { catalog } = ctx.data(request);
      const snapshot = ctx.snapshotId(request);
      const { query } = request;
      const after = startAfter(query.page_token, snapshot, catalog.length, messages[query.language]);
      const page = catalogPage(
        catalog,
        {
          state: query.state,
          authorityTypes: query.authority_types,
          items: query.items,
          includeBetaStates: query.include_beta_states,
        },
        after,
        query.page_size,
      );
      const next = page.nextAfter === null ? null : encodePageToken({ snapshot, after: page.nextAfter });
      return sendJson(reply, incentivesListBody(snapshot, catalog, page, next, query.language));
    },
  );
}
