import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { KeyIdentity } from '../auth/api-key.ts';
import type { KeyAuthenticator } from '../auth/key-store.ts';
import { bearerToken } from '../auth/bearer-token.ts';
import type { ServeMetrics } from '../serve-metrics.ts';
import { documentErrorResponses, documentedError, errors } from '../errors.ts';
import type { RateLimiter, RateWindow } from './rate-limiter.ts';
import { languageOf } from './validation-messages.ts';

/*
 * Why a plugin: a key is what the API scope asks of every request, so it is registered on that scope and
 * every route registered in it (or in any context inside it, whatever its own options say) is behind it;
 * the routes outside it (/healthz, /spec.json, /docs, and paths no route serves) need no key and have no
 * limit, so a busy client can never make the health check fail. Nothing is added to a route and taken
 * off again: where it is registered is where it applies.
 */

/** The name other plugins may declare as a dependency. */
export const AUTH_PLUGIN = 'electrify-auth';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key that authenticated the request (set on the API scope's routes only). */
    apiKey: KeyIdentity | null;
  }
  interface FastifyContextConfig {
    /**
     * A route whose requests for one URL count once per key and rate window: a Parquet file that a remote
     * reader fetches in many range requests (footer, then row groups) is one read against the limit.
     */
    rateLimitOncePerUrl?: boolean;
  }
}

export interface AuthOptions {
  keyStore: KeyAuthenticator;
  /** Counts each key's requests against RATE_LIMIT_PER_MINUTE (this process's count, or the deployment's). */
  limiter: RateLimiter;
  /** Counts the requests the limit refuses. */
  metrics?: Pick<ServeMetrics, 'rateLimitRefused'>;
}

/** The errors this plugin answers with, each shown with a body it really sends. */
const AUTH_ERRORS = {
  401: documentedError('Missing, invalid or revoked API key', errors.missingKey('en')),
  429: documentedError(
    "Rate limit of this API key exceeded; retry after the Retry-After header's seconds",
    errors.rateLimited(42),
  ),
};

export const authPlugin = fp<AuthOptions>(
  async (scope, { keyStore, limiter, metrics }) => {
    scope.decorateRequest('apiKey', null);

    /** The headers say what the count that decided says; over the limit, the request is refused. */
    const apply = (reply: FastifyReply, window: RateWindow, nowMs: number, done: HookHandlerDoneFunction) => {
      const resetSeconds = Math.ceil((window.resetsAt - nowMs) / 1000);
      reply
        .header('x-ratelimit-limit', limiter.limit)
        .header('x-ratelimit-remaining', Math.max(0, limiter.limit - window.count))
        .header('x-ratelimit-reset', resetSeconds);
      if (window.count <= limiter.limit) return done();
      metrics?.rateLimitRefused();
      done(errors.rateLimited(resetSeconds));
    };

    // Authentication and the per-key rate limit in one hook, synchronous when the count is this process's
    // own (a request that is let through costs a map lookup for its key, one for its window, and three
    // headers), and one round trip when the count is shared by the deployment's replicas.
    scope.addHook(
      'onRequest',
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        const token = bearerToken(request.headers.authorization);
        // Before the body is read: a refusal goes by the query's language.
        if (token === null) return done(errors.missingKey(languageOf(request.query)));
        const key = keyStore.authenticate(token);
        if (key === null) return done(errors.invalidKey(languageOf(request.query)));
        request.apiKey = key;
        // One window per key, so clients behind one address do not share a limit.
        const nowMs = Date.now();
        const once = request.routeOptions.config.rateLimitOncePerUrl === true ? request.url : undefined;
        const window = limiter.take(key.id, nowMs, once);
        if (window instanceof Promise) {
          window.then((shared) => apply(reply, shared, nowMs, done), done);
        } else {
          apply(reply, window, nowMs, done);
        }
      },
    );

    scope.addHook('onRoute', (route) => documentErrorResponses(route, AUTH_ERRORS));
  },
  { name: AUTH_PLUGIN, fastify: '5.x' },
);
