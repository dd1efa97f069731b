import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { KeyIdentity } from '../auth/api-key.ts';
import type { KeyAuthenticator } from '../auth/key-store.ts';
import { bearerToken } from '../auth/bearer-token.ts';
import type { ServeMetrics } from '../serve-metrics.ts';
import { documentErrorResponses, documentedError, errors } from '../errors.ts';
import { languageOf } from '../http/validation-messages.ts';

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
  /** Requests a key may make a minute (RATE_LIMIT_PER_MINUTE). */
  perMinute: number;
  /** Where every replica counts (RATE_LIMIT_REDIS_URL), so the limit holds for the deployment; default: here. */
  redis?: Redis | undefined;
  /** Counts the requests the limit refuses. */
  metrics?: Pick<ServeMetrics, 'rateLimitRefused'>;
}

/** The rate limit's window: the limit is a number of requests a minute. */
const WINDOW_MS = 60_000;

/** The errors this plugin answers with, each shown with a body it really sends. */
const AUTH_ERRORS = {
  401: documentedError('Missing, invalid or revoked API key', errors.missingKey('en')),
  429: documentedError(
    "Rate limit of this API key exceeded; retry after the Retry-After header's seconds",
    errors.rateLimited(42),
  ),
};

export const authPlugin = fp<AuthOptions>(
  async (scope, { keyStore, perMinute, redis, metrics }) => {
    scope.decorateRequest('apiKey', null);
    // Counted by the hook below, once the key is known: no route gets the plugin's own hook.
    await scope.register(rateLimit, {
      global: false,
      max: perMinute,
      timeWindow: WINDOW_MS,
      // One count per key, so clients behind one address do not share a limit.
      keyGenerator: (request) => request.apiKey!.id,
      // Fail open: while Redis cannot answer, requests are let through uncounted.
      skipOnError: true,
      nameSpace: 'electrify:ratelimit:',
      ...(redis === undefined ? {} : { redis }),
    });
    const countRequest = scope.createRateLimit();
    // A key's requests for one file URL in a window: only the first counts against the limit.
    const countFileRead = scope.createRateLimit({
      max: 1,
      keyGenerator: (request) => `${request.apiKey!.id} ${request.url}`,
    });

    scope.addHook('onRequest', async (request, reply) => {
      const token = bearerToken(request.headers.authorization);
      // Before the body is read: a refusal goes by the query's language.
      if (token === null) throw errors.missingKey(languageOf(request.query));
      const key = keyStore.authenticate(token);
      if (key === null) throw errors.invalidKey(languageOf(request.query));
      request.apiKey = key;
      let counts = true;
      if (request.routeOptions.config.rateLimitOncePerUrl === true) {
        const read = await countFileRead(request);
        counts = read.isAllowed || !read.isExceeded;
      }
      const count = await countRequest(request, { increment: counts });
      if (count.isAllowed) return;
      reply
        .header('x-ratelimit-limit', count.max)
        .header('x-ratelimit-remaining', count.remaining)
        .header('x-ratelimit-reset', count.ttlInSeconds);
      if (!count.isExceeded) return;
      metrics?.rateLimitRefused();
      throw errors.rateLimited(count.ttlInSeconds);
    });

    scope.addHook('onRoute', (route) => documentErrorResponses(route, AUTH_ERRORS));
  },
  { name: AUTH_PLUGIN, fastify: '5.x' },
);
