import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { OutgoingHttpHeaders } from 'node:http';
import type { ServeMetrics } from '../serve-metrics.ts';
import { negotiateEncoding, type ContentEncoding } from '../http/accept-encoding.ts';
import { compressBody, encodingFor, type Compressor } from '../http/body-encoding.ts';
import { canonicalUrl, dataEtag, encodingEtag, notModifiedEtag } from '../http/etag.ts';
import { SNAPSHOT_SCOPE_PLUGIN, type PinnedRequest } from './snapshot-scope.ts';

/*
 * Why a plugin: a data answer is a function of the snapshot, the as-of date and the request, so a 200 gets
 * an ETag derived from those (a matching If-None-Match is answered 304 before the handler runs), goes out
 * in the coding the client accepts, and is kept to be sent again for the same request. A request is known
 * by its URL in canonical form, or by the key its route gives it (`answerKey` in the route's config);
 * a route that sets its own ETag (a file) is left alone.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What equal answers of different requests are kept and tagged under, once the request is validated
     * (the calculator's income class, a POST body in a canonical form). Undefined for a request it cannot
     * key: a GET is then known by its URL; a POST is neither tagged nor kept. It must follow from the URL
     * and the body alone.
     */
    answerKey?: (request: FastifyRequest) => string | undefined;
    /** Whether a request's 200 may be kept (default yes); it is tagged all the same. */
    keepAnswer?: (request: FastifyRequest) => boolean;
  }
}

/** The name other plugins may declare as a dependency. */
export const RESPONSE_CACHE_PLUGIN = 'electrify-response-cache';

/** Bounds of the response cache: its bodies' total bytes and its answers. */
export interface LruLimits {
  maxBytes: number;
  maxEntries: number;
}

export interface ResponseCacheOptions {
  /** Bounds of the response cache. */
  responseCache: LruLimits;
  /** The code and settings that answer, part of every ETag (serve/answer-version.ts). */
  answerVersion: string;
  /** Counts the response cache's hits and misses. */
  metrics?: Pick<ServeMetrics, 'responseCacheLookup'>;
  /** How a body is compressed (tests count the calls). */
  compress?: Compressor;
}

/** A 200 answer as it was sent in one coding. */
interface CachedAnswer {
  body: Buffer;
  /** The headers that belong to the answer itself (its coding's included). */
  headers: OutgoingHttpHeaders;
  /** The ETag of the answer unencoded, and the coding of `body`. */
  etag: string;
  encoding: ContentEncoding;
}

/**
 * Headers set per request, never part of a cached answer: the rate limit's, the CORS plugin's answer to the
 * caller's origin (a cached answer replayed to another origin must not name the first) and Vary, which names
 * Origin only when CORS answered this caller.
 */
const isPerRequestHeader = (name: string) =>
  name.startsWith('x-ratelimit-') || name.startsWith('access-control-') || name === 'vary';

const DATA_CACHE_CONTROL = 'private, no-cache';

/** Bytes an entry is charged beyond its body: headers, key and bookkeeping, roughly. */
const ENTRY_OVERHEAD_BYTES = 512;

/** Adds Accept-Encoding to the answer's Vary, keeping what another plugin put there (CORS: `Origin`). */
function varyOnEncoding(reply: FastifyReply): FastifyReply {
  const current = reply.getHeader('vary');
  if (current === undefined) return reply.header('vary', 'accept-encoding');
  const fields = String(current).split(/\s*,\s*/);
  if (fields.some((field) => field.toLowerCase() === 'accept-encoding')) return reply;
  return reply.header('vary', [...fields, 'accept-encoding'].join(', '));
}

/** The headers of a reply that belong to its answer, for sending it again (see isPerRequestHeader). */
function answerHeaders(reply: FastifyReply): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(reply.getHeaders()).filter(([name]) => !isPerRequestHeader(name)));
}

/** What a request is known by: its route's key for it, else its URL in canonical form (a POST: nothing). */
function requestKey(request: FastifyRequest, routeKey: string | undefined): string | undefined {
  // The route's path and method keep keys of different routes, and a GET's from a POST's, apart.
  if (routeKey !== undefined)
    return `${request.method === 'POST' ? 'POST' : 'GET'} ${request.routeOptions.url}\n${routeKey}`;
  return request.method === 'POST' ? undefined : canonicalUrl(request.url);
}

/** The cached answers of one snapshot and date, by coding and key; a lookup for another drops them all. */
class CachedAnswers {
  private readonly answers: LRUCache<string, CachedAnswer> | null;
  private cachedFor: PinnedRequest | null = null;

  constructor(
    { maxBytes, maxEntries }: LruLimits,
    private readonly compress: Compressor,
  ) {
    this.answers =
      maxBytes > 0 && maxEntries > 0
        ? new LRUCache<string, CachedAnswer>({ max: maxEntries, maxSize: maxBytes })
        : null;
  }

  private isCurrent({ snapshot, asOfDate }: PinnedRequest): boolean {
    return this.cachedFor?.snapshot === snapshot && this.cachedFor.asOfDate === asOfDate;
  }

  /** The cached answer of `key` in `encoding`, compressed now (and kept so) from the unencoded one if need be. */
  async lookUp(
    pinned: PinnedRequest,
    key: string,
    encoding: ContentEncoding,
  ): Promise<CachedAnswer | undefined> {
    if (this.answers === null) return undefined;
    if (!this.isCurrent(pinned)) {
      this.answers.clear();
      this.cachedFor = pinned;
    }
    const cached = this.answers.get(`${encoding} ${key}`);
    if (cached !== undefined || encoding === 'identity') return cached;
    const plain = this.answers.get(`identity ${key}`);
    if (plain === undefined) return undefined;
    const coded = await this.inCoding(plain, encoding);
    this.keep(pinned, key, coded);
    return coded;
  }

  /** Keeps an answer computed from the snapshot and date of the cached ones (not one that outlived a swap). */
  keep(pinned: PinnedRequest, key: string, answer: CachedAnswer): void {
    if (this.answers === null || !this.isCurrent(pinned)) return;
    const entry = `${answer.encoding} ${key}`;
    this.answers.set(entry, answer, { size: answer.body.length + entry.length + ENTRY_OVERHEAD_BYTES });
  }

  /** An unencoded answer in the coding a client accepts (as it is when too short to compress). */
  async inCoding(plain: CachedAnswer, accepted: ContentEncoding): Promise<CachedAnswer> {
    const encoding = encodingFor(accepted, plain.body.length);
    if (encoding === 'identity') return plain;
    return {
      body: await this.compress(plain.body, encoding),
      headers: { ...plain.headers, 'content-encoding': encoding, etag: encodingEtag(plain.etag, encoding) },
      etag: plain.etag,
      encoding,
    };
  }
}

/** What answering from the cache needs: the cached answers, the answer version and the hit counter. */
interface CacheContext {
  answers: CachedAnswers;
  answerVersion: string;
  metrics: ResponseCacheOptions['metrics'];
}

/**
 * Answers a request from the cache when it can: with its cached answer (not a HEAD, which has no body),
 * or 304 when a GET's or HEAD's If-None-Match names the answer's tag. Does nothing otherwise.
 */
async function answerFromCache(
  { answers, answerVersion, metrics }: CacheContext,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  urlKey?: string,
) {
  const pinned = request.pinned!;
  const accepted = negotiateEncoding(request.headers['accept-encoding']);
  const ifNoneMatch = request.method === 'POST' ? undefined : request.headers['if-none-match'];
  const cached = request.method === 'HEAD' ? undefined : await answers.lookUp(pinned, key, accepted);
  // Without a cached answer, the tag is worked out only for a conditional request.
  if (cached === undefined && ifNoneMatch === undefined) return;
  const current = notModifiedEtag(
    ifNoneMatch,
    cached?.etag ?? dataEtag(answerVersion, pinned.snapshot.id, pinned.asOfDate, key),
    cached?.encoding ?? accepted,
  );
  if (current !== undefined) return varyOnEncoding(reply).code(304).header('etag', current).send();
  if (cached === undefined) return;
  metrics?.responseCacheLookup(true);
  // Found by its route's key: the same URL is then answered by onRequest, before any validation.
  if (urlKey !== undefined) answers.keep(pinned, urlKey, cached);
  return varyOnEncoding(reply.headers(cached.headers)).send(cached.body);
}

export const responseCachePlugin = fp<ResponseCacheOptions>(
  async (scope, { responseCache, answerVersion, metrics, compress = compressBody }) => {
    const answers = new CachedAnswers(responseCache, compress);
    const cache: CacheContext = { answers, answerVersion, metrics };

    // A repeated GET is answered by its URL, before its query is validated.
    scope.addHook('onRequest', async (request, reply) => {
      if (request.method === 'GET' || request.method === 'HEAD')
        return answerFromCache(cache, request, reply, requestKey(request, undefined)!);
    });

    // A request whose route keys its answers is answered by its key, once validated.
    scope.addHook('preHandler', async (request, reply) => {
      const routeKey = request.routeOptions.config.answerKey?.(request);
      if (routeKey !== undefined)
        return answerFromCache(
          cache,
          request,
          reply,
          requestKey(request, routeKey)!,
          requestKey(request, undefined),
        );
    });

    // A computed 200 is tagged, kept (not a HEAD's, which has no body) and sent in the coding the client
    // accepts; errors are never kept nor compressed. An answer from the cache, or with an ETag of its own
    // (a file), goes as it is.
    scope.addHook('onSend', async (request, reply, payload) => {
      const { pinned } = request;
      const { answerKey, keepAnswer } = request.routeOptions.config;
      if (pinned === null || reply.hasHeader('etag')) return payload;
      if (request.method === 'POST' && answerKey === undefined) return payload;
      metrics?.responseCacheLookup(false);
      if (reply.statusCode !== 200) return payload;
      const key = requestKey(request, answerKey?.(request));
      if (key === undefined) return payload;
      const etag = dataEtag(answerVersion, pinned.snapshot.id, pinned.asOfDate, key);
      reply.header('etag', etag).header('cache-control', DATA_CACHE_CONTROL);
      if (!(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      const plain: CachedAnswer = {
        body,
        headers: answerHeaders(varyOnEncoding(reply)),
        etag,
        encoding: 'identity',
      };
      const sent = await answers.inCoding(plain, negotiateEncoding(request.headers['accept-encoding']));
      if (request.method !== 'HEAD' && keepAnswer?.(request) !== false) {
        // Kept by its key, and by its URL too when the route keys it (so onRequest finds it next time).
        const urlKey = answerKey === undefined ? undefined : requestKey(request, undefined);
        for (const keptAs of urlKey === undefined ? [key] : [key, urlKey])
          for (const answer of new Set([plain, sent])) answers.keep(pinned, keptAs, answer);
      }
      if (sent !== plain) reply.header('content-encoding', sent.encoding).header('etag', sent.headers.etag);
      return sent.body;
    });
  },
  { name: RESPONSE_CACHE_PLUGIN, fastify: '5.x', dependencies: [SNAPSHOT_SCOPE_PLUGIN] },
);
