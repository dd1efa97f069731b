import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { documentErrorResponses, documentedError, errors } from '../errors.ts';
import type { LoadedSnapshot } from '../snapshot/snapshot-holder.ts';
import { AUTH_PLUGIN } from './auth.ts';

/*
 * Why a plugin: what makes a route a data route is that it answers from one snapshot, the one served when
 * the request arrived, whatever is published meanwhile, and says which (X-Snapshot-Id). Registered once on
 * the scope holding the route groups, after authentication (a dependency it declares: no snapshot is named
 * to a request that has not shown its key).
 */

/** The name other plugins may declare as a dependency. */
export const SNAPSHOT_SCOPE_PLUGIN = 'electrify-snapshot-scope';

/** What a data request is answered from, fixed when the request arrives. */
export interface PinnedRequest {
  snapshot: LoadedSnapshot;
  /** The date the request treats as today (YYYY-MM-DD). */
  asOfDate: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request is answered from (set on the API scope's routes only). */
    pinned: PinnedRequest | null;
  }
}

export interface SnapshotScopeOptions {
  snapshots: { current(): LoadedSnapshot | null };
  /** The as-of date of a request arriving now (AS_OF_DATE, else today in America/New_York). */
  today: () => string;
}

/** The error this plugin answers with, shown with a body it really sends. */
const SNAPSHOT_ERRORS = {
  503: documentedError(
    "No data snapshot is published yet; retry after the Retry-After header's seconds",
    errors.snapshotUnavailable(),
  ),
};

export const snapshotScopePlugin = fp<SnapshotScopeOptions>(
  async (scope, { snapshots, today }) => {
    scope.decorateRequest('pinned', null);

    scope.addHook(
      'onRequest',
      (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
        const snapshot = snapshots.current();
        if (snapshot === null) return done(errors.snapshotUnavailable());
        request.pinned = { snapshot, asOfDate: today() };
        done();
      },
    );

    // Every answer of a pinned request names its snapshot, errors and 304s included.
    scope.addHook(
      'onSend',
      (
        request: FastifyRequest,
        reply: FastifyReply,
        payload: unknown,
        done: (err: Error | null, payload?: unknown) => void,
      ) => {
        if (request.pinned !== null) reply.header('x-snapshot-id', request.pinned.snapshot.id);
        done(null, payload);
      },
    );

    scope.addHook('onRoute', (route) => documentErrorResponses(route, SNAPSHOT_ERRORS));
  },
  { name: SNAPSHOT_SCOPE_PLUGIN, fastify: '5.x', dependencies: [AUTH_PLUGIN] },
);
