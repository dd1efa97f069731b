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
import type { KeyIdentity } from './auth/api-key.ts';
import type { PrecomputeProgress } from './http/not-ready.ts';
import type { ServeMetrics } from './serve-metrics.ts';
import type { ContentEncoding } from './http/accept-encoding.ts';
import type { LoadedSnapshot } from './snapshot/snapshot-holder.ts';
import type { ServingModule } from './snapshot/serving-module.ts';

/** The Fastify instance modules register routes on: zod schemas validate requests and feed the spec. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What a data request is answered from, fixed when the request arrives. */
export interface PinnedRequest {
  snapshot: LoadedSnapshot;
  /** The date the request treats as today (YYYY-MM-DD). */
  asOfDate: string;
  /** The ETag a successful answer gets (GET and HEAD, and POST named by `bodyAnswerKey`). */
  etag: string | null;
  /** What the answer is kept under in the response cache: the route's `answerKey`, else the URL. */
  cacheKey: string;
  /** The coding the client accepts best (Accept-Encoding); a short body is sent unencoded anyway. */
  encoding: ContentEncoding;
  /** Whether the answer is a kept one, sent with the headers and in the coding it was kept with. */
  replayed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key that authenticated the request (set by the auth plugin, on the API scope's routes only). */
    apiKey: KeyIdentity | null;
    /** What the request is answered from (set by the data-scope plugin, on the API scope's routes only). */
    pinned: PinnedRequest | null;
    /** The error the request was answered with (set by the error plugin; the request-log line names it). */
    failure: { code: string; message: string } | null;
  }
  /** What a route of the API scope may tell the data-scope plugin about its answers. */
  interface FastifyContextConfig {
    /**
     * Whether a GET's 200 answer may be kept in the shell's response cache and sent again for the same
     * URL until the snapshot or the as-of date changes (default: yes). A route whose answer can depend on
     * something outside the snapshot (an external geocoder's answer) says no for those requests.
     */
    cacheResponse?: (request: FastifyRequest) => boolean;
    /**
     * A name shared by requests whose URLs differ but whose answers are byte-identical (the calculator's
     * incomes of one income class), so they share one cached answer and one ETag; undefined lets the URL
     * name the request. Called before the handler with the request pinned; it must not throw.
     */
    answerKey?: (request: FastifyRequest) => string | undefined;
    /**
     * For a POST whose 200 answer depends only on the snapshot data, the as-of date and its body: a name
     * for the body such that equal names have byte-equal answers (a canonical form), or undefined for a
     * body it cannot name (not cached). Named answers are cached and get an ETag like a GET's (no 304: a
     * POST is never conditional). Called after the body is parsed, before the handler; it must not throw.
     */
    bodyAnswerKey?: (request: FastifyRequest) => string | undefined;
    /**
     * The route answers with an immutable file of the snapshot and makes its own validators (a per-file
     * ETag, Last-Modified, byte ranges): the request is pinned and its answer tagged with X-Snapshot-Id, but
     * the plugin neither answers it from the response cache nor tags or keeps its answer.
     */
    servesFile?: boolean;
  }
}

/** What a module's routes may ask of the server, always about the request being answered. */
export interface ApiModuleContext<T> {
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
 * plugin (key and rate limit) and the data-scope plugin (snapshot pinning); its responses get X-Snapshot-Id and (for GET) an ETag with 304 handling. A GET's
 * 200 body must depend only on the snapshot data, the as-of date and the request URL: the ETag is derived
 * from those, so a matching If-None-Match is answered 304 without calling the handler, and the encoded
 * answer is cached and sent again for the same URL without calling it (see `cacheResponse` to opt out,
 * `answerKey` to name equal answers of different URLs alike).
 */
export interface ApiModule<T> {
  serving: ServingModule<T>;
  // Method syntax (not a property) so an ApiModule<Specific> fits a list of ApiModule<unknown>.
  register(app: ZodApp, ctx: ApiModuleContext<T>): void | Promise<void>;
}

function moduleContext<T>(
  module: ApiModule<T>,
  config: Config,
  services: ModuleServices,
): ApiModuleContext<T> {
  const pinned = (request: FastifyRequest) => {
    // Only reachable from a route registered outside the API scope: a wiring bug, not a client's.
    if (request.pinned === null || request.pinned === undefined) {
      throw new Error(`module ${module.serving.name} used outside its routes`);
    }
    return request.pinned;
  };
  return {
    config,
    data: (request) => {
      const { snapshot } = pinned(request);
      if (!snapshot.data.has(module.serving.name)) {
        throw new Error(`snapshot ${snapshot.id} was loaded without module ${module.serving.name}`);
      }
      return snapshot.data.get(module.serving.name) as T;
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
  module: ApiModule<T>,
  config: Config,
  services: ModuleServices,
): FastifyPluginAsync {
  return async (scope) => {
    scope.addHook('onRoute', (route) => {
      const schema = (route.schema ??= {}) as { tags?: string[] };
      schema.tags ??= [module.serving.name];
    });
    await module.register(scope.withTypeProvider<ZodTypeProvider>(), moduleContext(module, config, services));
  };
}
