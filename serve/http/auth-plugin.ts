import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { KeyAuthenticator } from '../auth/key-store.ts';
import { bearerToken } from '../auth/bearer-token.ts';
import type { ServeMetrics } from '../serve-metrics.ts';
import { documentErrorResponses, documentedError, errors } from '../errors.ts';
import { FixedWindowRateLimiter } from './rate-limiter.ts';

/*
 * Why a plugin: a key is what the API scope asks of every request, so it is registered on that scope and
 * every route registered in it (or in any context inside it, whatever its own options say) is behind it;
 * the routes outside it (/healthz, /spec.json, /docs, and paths no route serves) need no key and have no
 * limit, so a busy client can never make the health check fail. Nothing is added to a route and taken
 * off again: where it is registered is where it applies.
 */

/** The name other plugins may declare as a dependency. */
export const AUTH_PLUGIN = 'electrify-auth';

export interface AuthOptions {
  keyStore: KeyAuthenticator;
  /** RATE_LIMIT_PER_MINUTE: requests per key per minute. */
  requestsPerMinute: number;
  /** Counts the requests the limit refuses. */
  metrics?: Pick<ServeMetrics, 'rateLimitRefused'>;
}

/** The errors this plugin answers with, each shown with a body it really sends. */
const AUTH_ERRORS = {
  401: documentedError('Missing, invalid or revoked API key', errors.missingKey()),
  429: documentedError(
    "Rate limit of this API key exceeded; retry after the Retry-After header's seconds",
    errors.rateLimited(42),
  ),
};

export const authPlugin = fp<AuthOptions>(
  async (scope, { keyStore, requestsPerMinute, metrics }) => {
    const limiter = new FixedWindowRateLimiter(requestsPerMinute, 60_000);
    scope.decorateRequest('apiKey', null);

    // Authentication and the per-key rate limit in one synchronous hook: a request that is let through
    // costs a map lookup for its key, one for its window, and three headers.
    scope.addHook(
      'onRequest',
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        const token = bearerToken(request.headers.authorization);
        if (token === null) return done(errors.missingKey());
        const key = keyStore.authenticate(token);
        if (key === null) return done(errors.invalidKey());
        request.apiKey = key;
        // One window per key, so clients behind one address do not share a limit.
        const nowMs = Date.now();
        const window = limiter.take(key.id, nowMs);
        const resetSeconds = Math.ceil((window.resetsAt - nowMs) / 1000);
        reply
          .header('x-ratelimit-limit', limiter.limit)
          .header('x-ratelimit-remaining', Math.max(0, limiter.limit - window.count))
          .header('x-ratelimit-reset', resetSeconds);
        if (window.count > limiter.limit) {
          metrics?.rateLimitRefused();
          return done(errors.rateLimited(resetSeconds));
        }
        done();
      },
    );

    scope.addHook('onRoute', (route) => documentErrorResponses(route, AUTH_ERRORS));
  },
  { name: AUTH_PLUGIN, fastify: '5.x' },
);
