import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../schemas/config.ts';
import type { PrecomputeProgress } from './http/not-ready.ts';
import type { ServeMetrics } from './serve-metrics.ts';
import type { SnapshotLoader } from './snapshot/snapshot-loader.ts';

/** The Fastify instance modules register routes on: zod schemas validate requests and feed the spec. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What a module's routes may ask of the server, always about the request being answered. */
export interface RouteGroupContext<T> {
  readonly config: Config;
  /** This module's data from the snapshot the request is pinned to (the same for the whole request). */
  data(request: FastifyRequest): T;
  /** The date the request treats as today (AS_OF_DATE, else today in America/New_York). */
  asOfDate(request: FastifyRequest): string;
  /** The id of the snapshot the request is pinned to (what its X-Snapshot-Id header says). */
  snapshotId(request: FastifyRequest): string;
  /** How far the precompute building the families the served snapshot lacks is; null when none runs. */
  precompute(): PrecomputeProgress | null;
  /** The process's metrics, for what a module alone can see (the REM model's queue). */
  readonly metrics: Pick<ServeMetrics, 'watchModelQueue'>;
}

/**
 * A group of data routes: what it needs loaded from each snapshot, and how it registers its routes.
 * Each module is registered in its own encapsulated context inside the API scope, so behind the auth
 * plugin (key and rate limit), the snapshot scope (its responses get X-Snapshot-Id) and the response cache
 * (a GET's 200 gets an ETag with 304 handling). A GET's 200 body must depend only on the snapshot data,
 * the as-of date and the request URL: the ETag is derived from those, so a matching If-None-Match is
 * answered 304 without calling the handler, and the encoded answer is kept and sent again for the same URL
 * without calling it (a route's `keepAnswer` config opts out, its `answerKey` keys equal answers of
 * different URLs alike; see serve/plugins/response-cache.ts).
 */
export interface RouteGroup<T> {
  loader: SnapshotLoader<T>;
  // Method syntax (not a property) so an RouteGroup<Specific> fits a list of RouteGroup<unknown>.
  register(app: ZodApp, ctx: RouteGroupContext<T>): void | Promise<void>;
}

function moduleContext<T>(
  module: RouteGroup<T>,
  config: Config,
  services: ModuleServices,
): RouteGroupContext<T> {
  const pinned = (request: FastifyRequest) => {
    // Only reachable from a route registered outside the API scope: a wiring bug, not a client's.
    if (request.pinned === null || request.pinned === undefined) {
      throw new Error(`module ${module.loader.name} used outside its routes`);
    }
    return request.pinned;
  };
  return {
    config,
    data: (request) => {
      const { snapshot } = pinned(request);
      if (!snapshot.data.has(module.loader.name)) {
        throw new Error(`snapshot ${snapshot.id} was loaded without module ${module.loader.name}`);
      }
      return snapshot.data.get(module.loader.name) as T;
    },
    asOfDate: (request) => pinned(request).asOfDate,
    snapshotId: (request) => pinned(request).snapshot.id,
    precompute: services.precompute,
    metrics: services.metrics,
  };
}

/** What the app hands every module: how far a running precompute is, and the process's metrics. */
export interface ModuleServices {
  precompute: () => PrecomputeProgress | null;
  metrics: ServeMetrics;
}

/**
 * A module as a Fastify plugin: its routes in a context of their own (hooks a module adds stay among its
 * routes), grouped on the reference page under the module's name unless a route says otherwise.
 */
export function apiModulePlugin<T>(
  module: RouteGroup<T>,
  config: Config,
  services: ModuleServices,
): FastifyPluginAsync {
  return async (scope) => {
    scope.addHook('onRoute', (route) => {
      const schema = (route.schema ??= {}) as { tags?: string[] };
      schema.tags ??= [module.loader.name];
    });
    await module.register(scope.withTypeProvider<ZodTypeProvider>(), moduleContext(module, config, services));
  };
}
