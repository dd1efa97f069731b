import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { documentErrorResponses, documentedError, errors } from '../errors.ts';
import type { ServeMetrics } from '../serve-metrics.ts';
import type { LoadedSnapshot } from '../snapshot/snapshot-holder.ts';
import { negotiateEncoding, type ContentEncoding } from './accept-encoding.ts';
import { AUTH_PLUGIN } from './auth-plugin.ts';
import { compressBody, encodingFor, type Compressor } from './body-encoding.ts';
import { canonicalUrl, dataEtag, encodingEtag, notModifiedEtag } from './etag.ts';
import type { LruLimits } from './lru-cache.ts';
import { SnapshotResponseCache, type CachedResponse } from './response-cache.ts';

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
  /** How a body is compressed (tests count the calls). */
  compress?: Compressor;
}

/**
 * Headers set per request, never part of a cached answer: the auth plugin's rate limit, the CORS
 * plugin's answer to the caller's origin (a kept answer replayed to another origin must not name the
 * first) and Vary, which names Origin only when CORS answered this caller.
 */
const PER_REQUEST_HEADERS = new Set([
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'vary',
]);
const isPerRequestHeader = (name: string) =>
  PER_REQUEST_HEADERS.has(name) || name.startsWith('access-control-');

const DATA_CACHE_CONTROL = 'private, no-cache';

/** Which of an answer's headers says the body's coding was chosen by the request's Accept-Encoding. */
const VARY = 'accept-encoding';

/** Adds `field` to the answer's Vary, keeping what another plugin put there (CORS: `Origin`). */
function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  const fields =
    current === undefined
      ? []
      : String(current)
          .split(/\s*,\s*/)
          .filter(Boolean);
  if (!fields.some((f) => f.toLowerCase() === field)) fields.push(field);
  reply.header('vary', fields.join(', '));
}

/** Marks an answer as sent in `encoding`, under its tag for that coding (if it has one). */
function setEncoding(reply: FastifyReply, encoding: ContentEncoding, etag: string | null): void {
  if (encoding === 'identity') return;
  reply.header('content-encoding', encoding);
  if (etag !== null) reply.header('etag', encodingEtag(etag, encoding));
}

/** The error this plugin answers with, shown with a body it really sends. */
const DATA_ERRORS = {
  503: documentedError(
    "No data snapshot is published yet; retry after the Retry-After header's seconds",
    errors.snapshotUnavailable(),
  ),
};

export const dataScopePlugin = fp<DataScopeOptions>(
  async (scope, { snapshots, today, responseCache, metrics, compress = compressBody }) => {
    const responses = new SnapshotResponseCache(responseCache, compress);
    scope.decorateRequest('pinned', null);

    // A kept answer, in the coding the client accepts (compressed at most once per coding).
    const sendCached = (request: FastifyRequest, reply: FastifyReply, cached: CachedResponse) => {
      const { snapshot, asOfDate, cacheKey, encoding: accepted } = request.pinned!;
      const encoding = encodingFor(accepted, cached.body.length);
      request.pinned!.replayed = true;
      const send = (body: Buffer) => {
        reply.headers(cached.headers);
        addVary(reply, VARY);
        setEncoding(reply, encoding, cached.etag);
        void reply.send(body);
      };
      const body = responses.bodyIn(snapshot, asOfDate, cacheKey, cached, encoding);
      if (body instanceof Promise) body.then(send, (err: Error) => void reply.send(err));
      else send(body);
    };

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
        const pinned = {
          snapshot,
          asOfDate: date,
          etag: null as string | null,
          cacheKey: request.url,
          encoding: negotiateEncoding(request.headers['accept-encoding']),
          replayed: false,
        };
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
            const encoding = encodingFor(pinned.encoding, cached.body.length);
            const current = notModifiedEtag(request.headers['if-none-match'], cached.etag, encoding);
            if (current !== undefined) {
              addVary(reply, VARY);
              void reply.code(304).headers({ etag: current, 'x-snapshot-id': snapshot.id }).send();
            } else {
              sendCached(request, reply, cached);
            }
            return;
          }
        }
        if (conditional) pinned.etag = dataEtag(snapshot.id, date, named ?? canonicalUrl(request.url));
        const current =
          pinned.etag === null
            ? undefined
            : notModifiedEtag(request.headers['if-none-match'], pinned.etag, pinned.encoding);
        if (current !== undefined) {
          addVary(reply, VARY);
          void reply.code(304).header('etag', current).send();
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
          sendCached(request, reply, cached);
          return;
        }
        pinned.etag = dataEtag(pinned.snapshot.id, pinned.asOfDate, pinned.cacheKey);
        done();
      },
    );

    // Tags a data response with its snapshot (and a 200 GET/HEAD or named POST with its ETag), sends a 200
    // body in the coding the client accepts, and keeps a tagged 200 answer (but a HEAD's) for the next
    // identical request. Errors are never kept, nor compressed (they are short); nor is what a route opts
    // out of kept.
    scope.addHook(
      'onSend',
      (
        request: FastifyRequest,
        reply: FastifyReply,
        payload: unknown,
        done: (err: Error | null, payload?: unknown) => void,
      ) => {
        const pinned = request.pinned;
        // A kept answer goes as it was kept: its headers (snapshot, ETag, Vary) and coding are set.
        if (pinned === null || pinned.replayed) return done(null, payload);
        reply.header('x-snapshot-id', pinned.snapshot.id);
        if (reply.statusCode !== 200) return done(null, payload);
        const { etag } = pinned;
        if (etag !== null) reply.header('etag', etag).header('cache-control', DATA_CACHE_CONTROL);
        // A stream is sent as it is.
        if (!(typeof payload === 'string' || Buffer.isBuffer(payload))) return done(null, payload);
        addVary(reply, VARY);
        const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
        const encoding = encodingFor(pinned.encoding, body.length);
        const cacheResponse = request.routeOptions.config.cacheResponse;
        const kept =
          etag !== null &&
          request.method !== 'HEAD' &&
          (cacheResponse === undefined || cacheResponse(request));
        const finish = (sent: Buffer) => {
          if (kept) {
            const headers = Object.fromEntries(
              Object.entries(reply.getHeaders()).filter(([name]) => !isPerRequestHeader(name)),
            );
            responses.store(pinned.snapshot, pinned.asOfDate, pinned.cacheKey, {
              body,
              compressed: encoding === 'identity' ? {} : { [encoding]: sent },
              headers,
              etag,
            });
          }
          setEncoding(reply, encoding, etag);
          done(null, sent);
        };
        if (encoding === 'identity') finish(body);
        else compress(body, encoding).then(finish, (err: Error) => done(err));
      },
    );

    scope.addHook('onRoute', (route) => documentErrorResponses(route, DATA_ERRORS));
  },
  { name: 'electrify-data-scope', fastify: '5.x', dependencies: [AUTH_PLUGIN] },
);
