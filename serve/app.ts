import Fastify, { LogController } from 'fastify';
import type { Redis } from 'ioredis';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../schemas/config.ts';
import type { Logger } from '../lib/log.ts';
import { apiModulePlugin, type RouteGroup, type ZodApp } from './route-group.ts';
import type { KeyAuthenticator } from './auth/key-store.ts';
import { docsPlugin } from './docs/docs-plugin.ts';
import { explorePlugin } from './explore/explore-plugin.ts';
import { asOfDateClock } from './http/as-of-date-clock.ts';
import { authPlugin } from './plugins/auth.ts';
import { corsPlugin } from './plugins/cors.ts';
import type { Compressor } from './http/body-encoding.ts';
import { errorPlugin, sendFrameworkError } from './plugins/errors.ts';
import { healthzPlugin } from './plugins/healthz.ts';
import { jsonBodyParser } from './http/json-body-parser.ts';
import type { PrecomputeProgress } from './http/not-ready.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { requestLogPlugin } from './plugins/request-log.ts';
import { parseQueryString } from './http/query-string.ts';
import { responseCachePlugin, type LruLimits } from './plugins/response-cache.ts';
import { localizedValidationError, requestValidatorCompiler } from './http/request-validation.ts';
import { snapshotScopePlugin } from './plugins/snapshot-scope.ts';
import { answerVersion } from './answer-version.ts';
import { ServeMetrics } from './serve-metrics.ts';
import type { LoadedSnapshot } from './snapshot/snapshot-holder.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  snapshots: { current(): LoadedSnapshot | null };
  routeGroups: readonly RouteGroup<unknown>[];
  keyStore: KeyAuthenticator;
  /** How far the precompute of the families the served snapshot lacks is (default: none runs). */
  precompute?: () => PrecomputeProgress | null;
  /** The clock AS_OF_DATE falls back to (tests fix it). */
  now?: () => Date;
  /** A number in [0, 1) per request, for request-log sampling (tests fix it). */
  random?: () => number;
  /** How a data answer is compressed (tests count the calls; default: brotli and gzip by node:zlib). */
  compress?: Compressor;
  /** Bounds of the response cache (default: RESPONSE_CACHE_MB and RESPONSE_CACHE_MAX_ENTRIES). */
  responseCache?: LruLimits;
  /** Where the app counts its requests, refusals and cache lookups (default: a registry of its own). */
  metrics?: ServeMetrics;
  /** Where the replicas share their rate-limit counts (RATE_LIMIT_REDIS_URL; default: this process alone). */
  rateLimitRedis?: Redis | undefined;
  /** Whether the process is draining before a stop (default: never). */
  draining?: () => boolean;
  /** What identifies the code and settings answering, in every ETag (default: `answerVersion(config)`). */
  answerVersion?: string;
}

/**
 * The default RESPONSE_CACHE_MB, 32, holds about a thousand of the largest calculator answers (20–40 KB):
 * the repeated requests of a busy period, while keeping the serving process well under its memory budget.
 */
export const RESPONSE_CACHE_MAX_ENTRIES = 10_000;

/**
 * The HTTP server, composed of encapsulated plugins registered where they apply: CORS, the error shape,
 * the API reference, the county map and the health check on the root (public), and one API scope holding
 * every route group behind the auth, snapshot-scope and response-cache plugins, whose hooks run in the order
 * they are registered. A route registered in the API scope cannot leave it, and nothing outside it asks for
 * a key.
 */
export async function buildApp(deps: AppDeps): Promise<ZodApp> {
  const { config, snapshots } = deps;
  const precompute = deps.precompute ?? (() => null);
  const metrics = deps.metrics ?? new ServeMetrics();
  metrics.watchSnapshots(snapshots);
  // Cast: passing a pino Logger makes Fastify's logger type parameter pino's; modules see the base type.
  const app = Fastify({
    loggerInstance: deps.logger,
    // Fastify's two lines per request off: the request-log plugin writes one.
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: sendFrameworkError,
    routerOptions: { querystringParser: parseQueryString },
    schemaErrorFormatter: localizedValidationError(),
  }).withTypeProvider<ZodTypeProvider>() as unknown as ZodApp;
  app.setValidatorCompiler(requestValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    jsonBodyParser(app.getDefaultJsonParser('error', 'error')),
  );

  // First, so a preflight is answered before any other hook (the auth plugin's) asks for a key.
  await app.register(corsPlugin, { origins: config.CORS_ORIGINS });
  await app.register(metricsPlugin, { metrics });
  await app.register(requestLogPlugin, { sample: config.REQUEST_LOG_SAMPLE, random: deps.random });
  await app.register(errorPlugin);
  await app.register(docsPlugin);
  await app.register(explorePlugin, { config });
  await app.register(healthzPlugin, {
    snapshots,
    loaders: deps.routeGroups.map((m) => m.loader),
    precompute,
    draining: deps.draining ?? (() => false),
  });
  await app.register(async (api) => {
    await api.register(authPlugin, {
      keyStore: deps.keyStore,
      perMinute: config.RATE_LIMIT_PER_MINUTE,
      redis: deps.rateLimitRedis,
      metrics,
    });
    await api.register(snapshotScopePlugin, {
      snapshots,
      today: asOfDateClock(config.AS_OF_DATE, deps.now ?? (() => new Date())),
    });
    await api.register(responseCachePlugin, {
      responseCache: deps.responseCache ?? {
        maxBytes: config.RESPONSE_CACHE_MB * 1024 * 1024,
        maxEntries: RESPONSE_CACHE_MAX_ENTRIES,
      },
      answerVersion: deps.answerVersion ?? answerVersion(config),
      metrics,
      compress: deps.compress,
    });
    for (const module of deps.routeGroups)
      await api.register(apiModulePlugin(module, config, { precompute, metrics }));
  });
  return app;
}
