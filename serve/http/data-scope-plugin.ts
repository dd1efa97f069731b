import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { documentErrorResponses, documentedError, errors } from '../errors.ts';
import type { ServeMetrics } from '../serve-metrics.ts';
import type { LoadedSnapshot } from '../snapshot/snapshot-holder.ts';
import { AUTH_PLUGIN } from './auth-plugin.ts';
import { canonicalUrl, dataEtag, ifNoneMatchMatches } from './etag.ts';
import type { LruLimits } from './lru-cache.ts';
import { SnapshotResponseCache } from './response-cache.ts';

/*
 * Why a plugin: what makes a route a data route is the same for all of them (the request is pinned to
 * the snapshot being served, its answer tagged with it, and a 200 may be answered again from the response
 * cache or with 304), so it is registered once on the scope holding the API modules, after authentication
 * (a dependency it declares: a cached answer must never reach a request that has not shown its key). A
 * route says only what is particular to it, in its config (`answerKey`, `bodyAnswerKey`, `cacheResponse`,
 * `servesFile`).
 */

export interface DataScopeOptions {
  snapshots: { current(): LoadedSnapshot | null };
  /** The as-of date of a request arriving now (AS_OF_DATE, else today in America/New_York). */
  today: () => string;
  /** Bounds of the response cache. */
  responseCache: LruLimits;
  /** Counts the response cache's hits and misses. */
  metrics?: Pick<ServeMetrics, 'responseCacheLookup'>;
}

/**
 * Headers set per request, never part of a cached answer: the auth plugin's rate limit, and the CORS
 * plugin's answer to the caller's origin (a kept answer replayed to another origin must not name the first).
 */
const PER_REQUEST_HEADERS = new Set(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
const isPerRequestHeader = (name: string) =>
  PER_REQUEST_HEADERS.has(name) || name.startsWith('access-control-');

const DATA_CACHE_CONTROL = 'private, no-cache';

/** The error this plugin answers with, shown with a body it really sends. */
const DATA_ERRORS = {
  503: documentedError(
    "No data snapshot is published yet; retry after the Retry-After header's seconds",
    errors.snapshotUnavailable(),
  ),
};

export const dataScopePlugin = fp<DataScopeOptions>(
  async (scope, { snapshots, today, responseCache, metrics }) => {
    const responses = new SnapshotResponseCache(responseCache);
    scope.decorateRequest('pinned', null);

    // Pins the request to the snapshot being served and answers it from the response cache or with 304
    // when it can, before the query is parsed or the handler runs. A route's answer key (if it names the
    // request) stands for the URL in both the cache and the ETag.
    scope.addHook(
      'onRequest',
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        const snapshot = snapshots.current();
        if (snapshot === null) return done(errors.snapshotUnavailable());
        const date = today();
        const conditional = request.method === 'GET' || request.method === 'HEAD';
        const pinned = { snapshot, asOfDate: date, etag: null as string | null, cacheKey: request.url };
        request.pinned = pinned;
        if (request.routeOptions.config.servesFile === true) return done();
        const answerKey = conditional ? request.routeOptions.config.answerKey : undefined;
        const named =
          answerKey !== undefined
            ? responses.nameFor(snapshot, date, request.url, () => answerKey(request))
            : undefined;
        if (named !== undefined) pinned.cacheKey = named;
        if (request.method === 'GET') {
          const cached = responses.lookup(snapshot, date, pinned.cacheKey);
          metrics?.responseCacheLookup(cached !== undefined);
          if (cached !== undefined) {
            if (ifNoneMatchMatches(request.headers['if-none-match'], cached.etag)) {
              void reply.code(304).header('etag', cached.etag).header('x-snapshot-id', snapshot.id).send();
            } else {
              void reply.headers(cached.headers).send(cached.body);
            }
            return;
          }
        }
        if (conditional) pinned.etag = dataEtag(snapshot.id, date, named ?? canonicalUrl(request.url));
        if (pinned.etag !== null && ifNoneMatchMatches(request.headers['if-none-match'], pinned.etag)) {
          void reply.code(304).header('etag', pinned.etag).send();
          return;
        }
        done();
      },
    );

    // A POST named by its route's `bodyAnswerKey` (once its body is parsed): answered from the response
    // cache when the same name was answered before under this snapshot and date, else tagged for its ETag
    // and kept like a GET's answer.
    scope.addHook(
      'preHandler',
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        if (request.method !== 'POST') return done();
        const { config, url } = request.routeOptions;
        const named = config.bodyAnswerKey?.(request);
        if (named === undefined) return done();
        const pinned = request.pinned!;
        // The route's path keeps bodies of different routes (and GET URLs) apart.
        pinned.cacheKey = `POST ${url}\n${named}`;
        const cached = responses.lookup(pinned.snapshot, pinned.asOfDate, pinned.cacheKey);
        metrics?.responseCacheLookup(cached !== undefined);
        if (cached !== undefined) {
          void reply.headers(cached.headers).send(cached.body);
          return;
        }
        pinned.etag = dataEtag(pinned.snapshot.id, pinned.asOfDate, pinned.cacheKey);
        done();
      },
    );

    // Tags a data response with its snapshot (and a 200 GET/HEAD or named POST with its ETag), and keeps
    // its 200 answer (but a HEAD's) for the next identical request. Errors are never kept; nor is what a
    // route opts out of.
    scope.addHook(
      'onSend',
      (
        request: FastifyRequest,
        reply: FastifyReply,
        payload: unknown,
        done: (err: Error | null, payload?: unknown) => void,
      ) => {
        const pinned = request.pinned;
        if (pinned === null) return done(null, payload);
        reply.header('x-snapshot-id', pinned.snapshot.id);
        if (pinned.etag === null || reply.statusCode !== 200) return done(null, payload);
        reply.header('etag', pinned.etag).header('cache-control', DATA_CACHE_CONTROL);
        const encoded = typeof payload === 'string' || Buffer.isBuffer(payload);
        if (request.method === 'HEAD' || !encoded) return done(null, payload);
        const cacheResponse = request.routeOptions.config.cacheResponse;
        if (cacheResponse !== undefined && !cacheResponse(request)) return done(null, payload);
        const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
        const headers = Object.fromEntries(
          Object.entries(reply.getHeaders()).filter(([name]) => !isPerRequestHeader(name)),
        );
        responses.store(pinned.snapshot, pinned.asOfDate, pinned.cacheKey, {
          body,
          headers,
          etag: pinned.etag,
        });
        done(null, body);
      },
    );

    scope.addHook('onRoute', (route) => documentErrorResponses(route, DATA_ERRORS));
  },
  { name: 'electrify-data-scope', fastify: '5.x', dependencies: [AUTH_PLUGIN] },
);
