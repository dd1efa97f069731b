import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { OutgoingHttpHeaders } from 'node:http';
import type { ServeMetrics } from '../serve-metrics.ts';
import { negotiateEncoding, type ContentEncoding } from './accept-encoding.ts';
import { compressBody, encodingFor, type Compressor } from './body-encoding.ts';
import { canonicalUrl, dataEtag, encodingEtag, notModifiedEtag } from './etag.ts';
import type { LruLimits } from './lru-cache.ts';
import { SnapshotResponseCache, type CachedResponse } from './response-cache.ts';
import { SNAPSHOT_SCOPE_PLUGIN } from './snapshot-scope-plugin.ts';

/*
 * Why a plugin: a data answer is a function of the snapshot, the as-of date and the request, so a 200 is
 * tagged with an ETag derived from those (a matching If-None-Match is answered 304 before the handler
 * runs), sent in the coding the client accepts, and kept to be sent again for the same request without
 * calling the handler. Registered on the API scope after the snapshot scope (a dependency it declares).
 * A request is named by its URL, unless its route names its answers (the `nameAnswer` hook); a route
 * whose answers must not be kept says so (the `keepAnswerIf` hook); a route that makes its own validators
 * (a file, with an ETag of its own) is left alone.
 */

/** The name other plugins may declare as a dependency. */
export const RESPONSE_CACHE_PLUGIN = 'electrify-response-cache';

/** How a request's answer is named, tagged and kept. */
export interface RequestAnswer {
  /** What the answer is kept under: the URL, or the name its route gave it. */
  key: string;
  /** Whether `key` is a route's name (which then makes the ETag) rather than the URL. */
  named: boolean;
  /** Whether a 200 answer may be kept (a route may say no for some requests). */
  keep: boolean;
  /** Looked up in the cache and not found there: counted as a miss when the answer is sent. */
  missed: boolean;
  /** Answered from the cache (a kept answer, or 304 to its tag): sent as it was kept. */
  replayed: boolean;
  /** The coding the client accepts best (Accept-Encoding), once asked; a short body is sent unencoded. */
  accepts: ContentEncoding | undefined;
  /** The plugin's cache, for the routes' hooks. */
  readonly cache: KeptAnswers;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** How the request's answer is named, tagged and kept (set on the API scope's routes only). */
    answer: RequestAnswer | null;
  }
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

/**
 * Headers set per request, never part of a kept answer: the auth plugin's rate limit, the CORS plugin's
 * answer to the caller's origin (a kept answer replayed to another origin must not name the first) and
 * Vary, which names Origin only when CORS answered this caller.
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

/** The coding a request's client accepts best, negotiated once per request. */
const accepted = (request: FastifyRequest, answer: RequestAnswer): ContentEncoding =>
  (answer.accepts ??= negotiateEncoding(request.headers['accept-encoding']));

type SendDone = (err: Error | null, payload?: unknown) => void;

/**
 * What a POST's name is remembered under: its URL and its JSON body's text (a name is a function of the
 * two, as a GET's is of its URL); none for a POST without a JSON body, or for another method.
 */
const postIdentity = (request: FastifyRequest): string | undefined =>
  request.method === 'POST' && request.bodyText !== null
    ? `POST ${request.url}\n${request.bodyText}`
    : undefined;

/** The response cache of the API scope and the hooks that use it. */
class KeptAnswers {
  constructor(
    private readonly responses: SnapshotResponseCache,
    private readonly compress: Compressor,
    private readonly metrics: ResponseCacheOptions['metrics'],
    private readonly answerVersion: string,
  ) {}

  /**
   * When a request arrives (pinned, not yet validated): a GET or HEAD whose URL has a kept answer, or a
   * name with one, is answered from the cache, or with 304 when If-None-Match names its tag.
   */
  readonly onRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const answer: RequestAnswer = {
      key: request.url,
      named: false,
      keep: true,
      missed: false,
      replayed: false,
      accepts: undefined,
      cache: this,
    };
    request.answer = answer;
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    const { snapshot, asOfDate } = request.pinned!;
    const name = this.responses.knownName(snapshot, asOfDate, request.url);
    if (name !== undefined) {
      answer.key = name;
      answer.named = true;
    }
    if (!this.answerFromCache(request, reply)) done();
  };

  /**
   * Once a POST's JSON body is parsed (not yet validated): a body whose text was named before, at the same
   * URL, is answered under that name from the cache, without being validated and named again.
   */
  readonly preValidation = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const answer = request.answer;
    const identity = postIdentity(request);
    if (answer === null || identity === undefined) return done();
    const { snapshot, asOfDate } = request.pinned!;
    const name = this.responses.knownName(snapshot, asOfDate, identity);
    if (name === undefined) return done();
    answer.key = name;
    answer.named = true;
    if (!this.answerFromCache(request, reply)) done();
  };

  /**
   * Names a request's answer (its route's `nameAnswer`), and answers it from the cache when it can. A
   * GET's URL, and a POST's URL and body text, keep their name while the snapshot and date are served.
   * True when it was answered.
   */
  name(request: FastifyRequest, reply: FastifyReply, name: string): boolean {
    const answer = request.answer!;
    // The route's path and method keep names of different routes, and a GET's from a POST's, apart.
    answer.key = `${request.method === 'POST' ? 'POST' : 'GET'} ${request.routeOptions.url}\n${name}`;
    answer.named = true;
    const identity = request.method === 'POST' ? postIdentity(request) : request.url;
    if (identity !== undefined) {
      const { snapshot, asOfDate } = request.pinned!;
      this.responses.rememberName(snapshot, asOfDate, identity, answer.key);
    }
    return this.answerFromCache(request, reply);
  }

  /** A kept answer (GET, named POST) or 304 (GET, HEAD: never a POST); false when neither applies. */
  private answerFromCache(request: FastifyRequest, reply: FastifyReply): boolean {
    const answer = request.answer!;
    if (request.method === 'GET' || (request.method === 'POST' && answer.named)) {
      const { snapshot, asOfDate } = request.pinned!;
      const kept = this.responses.lookup(snapshot, asOfDate, answer.key);
      if (kept !== undefined) {
        this.metrics?.responseCacheLookup(true);
        answer.missed = false;
        answer.replayed = true;
        this.sendKept(request, reply, kept);
        return true;
      }
      answer.missed = true;
    }
    // The tag is worked out only for a conditional request: it costs a hash, and the URL put in order.
    const header = request.headers['if-none-match'];
    if (request.method === 'POST' || header === undefined) return false;
    const current = notModifiedEtag(header, this.etagOf(request)!, accepted(request, answer));
    if (current === undefined) return false;
    addVary(reply, VARY);
    void reply.code(304).header('etag', current).send();
    return true;
  }

  /** A kept answer, or 304 to a GET naming its tag, in the coding the client accepts (compressed once per coding). */
  private sendKept(request: FastifyRequest, reply: FastifyReply, kept: CachedResponse): void {
    const answer = request.answer!;
    const encoding = encodingFor(accepted(request, answer), kept.body.length);
    const current =
      request.method === 'GET'
        ? notModifiedEtag(request.headers['if-none-match'], kept.etag, encoding)
        : undefined;
    if (current !== undefined) {
      addVary(reply, VARY);
      void reply.code(304).header('etag', current).send();
      return;
    }
    const send = (body: Buffer) => {
      reply.headers(kept.headers);
      addVary(reply, VARY);
      setEncoding(reply, encoding, kept.etag);
      void reply.send(body);
    };
    const { snapshot, asOfDate } = request.pinned!;
    const body = this.responses.bodyIn(snapshot, asOfDate, answer.key, kept, encoding);
    if (body instanceof Promise) body.then(send, (err: Error) => void reply.send(err));
    else send(body);
  }

  /** The ETag of a request's 200 answer: from its name, or its URL in canonical form; none for an unnamed POST. */
  private etagOf(request: FastifyRequest): string | null {
    const { named, key } = request.answer!;
    if (!named && request.method === 'POST') return null;
    const { snapshot, asOfDate } = request.pinned!;
    return dataEtag(this.answerVersion, snapshot.id, asOfDate, named ? key : canonicalUrl(request.url));
  }

  /**
   * When an answer computed for the request is sent: a 200 is tagged with its ETag, sent in the coding the
   * client accepts and, tagged and allowed, kept for the next identical request (a HEAD's is not, having no
   * body). Errors are never kept, nor compressed (they are short); a stream is sent as it is.
   */
  readonly onSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: SendDone) => {
    const answer = request.answer;
    if (answer === null || answer.replayed) return done(null, payload);
    if (answer.missed) this.metrics?.responseCacheLookup(false);
    // A route that made its own validators (a file) answers as it is.
    if (reply.statusCode !== 200 || reply.hasHeader('etag')) return done(null, payload);
    const etag = this.etagOf(request);
    if (etag !== null) reply.header('etag', etag).header('cache-control', DATA_CACHE_CONTROL);
    if (!(typeof payload === 'string' || Buffer.isBuffer(payload))) return done(null, payload);
    addVary(reply, VARY);
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const encoding = encodingFor(accepted(request, answer), body.length);
    const keep = etag !== null && request.method !== 'HEAD' && answer.keep;
    const finish = (sent: Buffer) => {
      if (keep) this.keep(request, reply, body, encoding === 'identity' ? {} : { [encoding]: sent }, etag);
      setEncoding(reply, encoding, etag);
      done(null, sent);
    };
    if (encoding === 'identity') finish(body);
    else this.compress(body, encoding).then(finish, (err: Error) => done(err));
  };

  /**
   * Keeps a 200 answer under the request's key, with the headers that belong to the answer itself; with
   * a cache too small for it (RESPONSE_CACHE_MB=0) nothing is made to be thrown away.
   */
  private keep(
    request: FastifyRequest,
    reply: FastifyReply,
    body: Buffer,
    compressed: CachedResponse['compressed'],
    etag: string,
  ): void {
    if (!this.responses.couldKeep(body.length)) return;
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (!isPerRequestHeader(name)) headers[name] = value;
    }
    const { snapshot, asOfDate } = request.pinned!;
    this.responses.store(snapshot, asOfDate, request.answer!.key, { body, compressed, headers, etag });
  }
}

export const responseCachePlugin = fp<ResponseCacheOptions>(
  async (scope, { responseCache, answerVersion, metrics, compress = compressBody }) => {
    const answers = new KeptAnswers(
      new SnapshotResponseCache(responseCache, compress),
      compress,
      metrics,
      answerVersion,
    );
    scope.decorateRequest('answer', null);
    scope.addHook('onRequest', answers.onRequest);
    scope.addHook('preValidation', answers.preValidation);
    scope.addHook('onSend', answers.onSend);
  },
  { name: RESPONSE_CACHE_PLUGIN, fastify: '5.x', dependencies: [SNAPSHOT_SCOPE_PLUGIN] },
);

type RequestHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * A route's preHandler hook naming its answers (after the route's validation): requests with equal names
 * have byte-equal answers, so they share one kept answer and one ETag (the calculator's incomes of one
 * income class, a POST's body in a canonical form). `name` gives undefined for a request it cannot name:
 * a GET is then named by its URL; a POST is neither tagged nor kept. A POST named alike is answered from
 * the cache and gets an ETag like a GET's, but never 304 (a POST is never conditional). A name must follow
 * from the URL and the body alone (never a header): the name a GET's URL, or a POST's URL and body text,
 * was given is remembered and used for the same URL and text again, without calling `name`.
 */
export function nameAnswer<R extends FastifyRequest>(name: (request: R) => string | undefined): RequestHook {
  return (request, reply, done) => {
    const answer = request.answer;
    // Outside the plugin's scope, or named already (its URL's name was known when it arrived).
    if (!answer || answer.named) return done();
    const named = name(request as R);
    if (named === undefined || !answer.cache.name(request, reply, named)) done();
  };
}

/**
 * A route's preHandler hook saying whether a request's 200 answer may be kept (default: yes): a route whose
 * answer can depend on something outside the snapshot (an external geocoder's answer) says no for those
 * requests. The answer is tagged all the same.
 */
export function keepAnswerIf<R extends FastifyRequest>(keep: (request: R) => boolean): RequestHook {
  return (request, _reply, done) => {
    if (request.answer && !keep(request as R)) request.answer.keep = false;
    done();
  };
}
