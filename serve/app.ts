import Fastify, {
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
  type RouteOptions,
} from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../schemas/config.ts';
import type { Logger } from '../lib/log.ts';
import type { ApiModule, ApiModuleContext, ZodApp } from './api-module.ts';
import type { KeyAuthenticator } from './auth/key-store.ts';
import { bearerToken } from './auth/bearer-token.ts';
import { documentedError, errors, toHttpError, type DocumentedError } from './errors.ts';
import { asOfDateClock } from './http/as-of-date-clock.ts';
import { canonicalUrl, dataEtag, ifNoneMatchMatches } from './http/etag.ts';
import type { LruLimits } from './http/lru-cache.ts';
import { FixedWindowRateLimiter } from './http/rate-limiter.ts';
import { localizedValidatorCompiler } from './http/request-validation.ts';
import { SnapshotResponseCache } from './http/response-cache.ts';
import type { LoadedSnapshot } from './snapshot/snapshot-holder.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  snapshots: { current(): LoadedSnapshot | null };
  apiModules: readonly ApiModule<unknown>[];
  keyStore: KeyAuthenticator;
  /** The clock AS_OF_DATE falls back to (tests fix it). */
  now?: () => Date;
  /** Bounds of the response cache (default: RESPONSE_CACHE_MB and RESPONSE_CACHE_MAX_ENTRIES). */
  responseCache?: LruLimits;
}

/**
 * The default RESPONSE_CACHE_MB, 32, holds about a thousand of the largest calculator answers (20–40 KB):
 * the repeated requests of a busy period, while keeping the serving process well under its memory budget.
 */
export const RESPONSE_CACHE_MAX_ENTRIES = 10_000;

/** Headers set per request by the shell, never part of a cached answer. */
const PER_REQUEST_HEADERS = new Set(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

const DATA_CACHE_CONTROL = 'private, no-cache';

type OnRequestHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;
type PreHandlerHook = OnRequestHook;
type OnSendHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, payload?: unknown) => void,
) => void;

/** A route's own hooks of one kind as a list (Fastify accepts one function or a list). */
const hookList = <H>(hooks: H | H[] | undefined): H[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

const healthSchema = z
  .object({
    status: z.enum(['ok', 'no-snapshot']).describe('"no-snapshot" until the first snapshot is loaded'),
    snapshot: z.object({ id: z.string(), createdAt: z.string() }).nullable(),
  })
  .meta({ id: 'Health' });

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The error statuses the shell itself answers with, each shown with a body it really sends. */
const SHELL_ERRORS: Record<number, DocumentedError> = {
  400: documentedError(
    'Invalid request: the message and `field` name the parameter at fault',
    errors.validation('household_size', 'must be at most 8'),
  ),
  401: documentedError('Missing, invalid or revoked API key', errors.missingKey()),
  429: documentedError(
    "Rate limit of this API key exceeded; retry after the Retry-After header's seconds",
    errors.rateLimited(42),
  ),
  500: documentedError('Internal error (details are logged, not returned)', errors.internal()),
  503: documentedError(
    "No data snapshot is published yet; retry after the Retry-After header's seconds",
    errors.snapshotUnavailable(),
  ),
};

/** Documents, on every route, the error statuses the shell itself can answer with (all in the Error shape). */
function documentErrors(route: RouteOptions, dataRoute: boolean): void {
  const schema = (route.schema ??= {});
  if ((schema as { hide?: boolean }).hide) return;
  const response = (schema.response ??= {}) as Record<string, unknown>;
  const validated = ['querystring', 'body', 'params', 'headers'].some((part) => part in schema);
  const statuses = [
    ...(validated ? [400] : []),
    ...(route.config?.public ? [] : [401, 429]),
    500,
    ...(dataRoute ? [503] : []),
  ];
  for (const status of statuses) response[status] ??= SHELL_ERRORS[status];
}

/** Where the interactive API reference is served (Swagger UI, rendering the same document as /spec.json). */
const DOCS_PATH = '/docs';

const API_DESCRIPTION = `Electrification incentives, savings and health-impact API, answered from a published snapshot.

**Authentication.** Every route except \`/healthz\`, \`/spec.json\` and this page (\`${DOCS_PATH}\`) needs an API key
in the header \`Authorization: Bearer <key>\`. \`npm start\` creates a key named \`local\` on first start and prints it
once; \`npm run keys -- create --name <name>\` makes more. Press **Authorize** to try requests from this page.
Each key has its own rate limit, reported in the \`X-RateLimit-*\` headers.

**Errors** all have one body, the \`Error\` schema: \`statusCode\`, \`error\` (the HTTP reason phrase), \`message\`
and, when one parameter is at fault, \`field\`.`;

/**
 * The HTTP server: authentication, rate limit, error shape, OpenAPI and health at the root; every API
 * module in its own context under a scope that pins each request to one snapshot and tags its responses.
 */
export async function buildApp(deps: AppDeps): Promise<ZodApp> {
  const { config, logger, snapshots, keyStore } = deps;
  const now = deps.now ?? (() => new Date());
  // Cast: passing a pino Logger makes Fastify's logger type parameter pino's; modules see the base type.
  const app = Fastify({
    loggerInstance: logger,
    // Errors Fastify meets before routing (a malformed URL) get the same body as every other error.
    frameworkErrors: (err, _request, reply) => {
      const { error } = toHttpError(err);
      void (reply as FastifyReply).code(error.statusCode).send(error.body());
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as ZodApp;
  // Routes whose schema Fastify applies get the same localized 400s as those validated by their handler.
  app.setValidatorCompiler(localizedValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('pinned', null);

  app.setErrorHandler((err, request, reply) => {
    const { error, expected } = toHttpError(err);
    if (expected) request.log.info({ code: error.code, statusCode: error.statusCode }, error.message);
    else request.log.error({ err, code: error.code }, 'request failed');
    return reply.code(error.statusCode).headers(error.headers).send(error.body());
  });

  // Fastify answers an unknown method on a known path with 404; a 405 with Allow tells the client more.
  app.setNotFoundHandler((request) => {
    const path = request.url.split('?')[0]!;
    const allowed = HTTP_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    throw allowed.length > 0
      ? errors.methodNotAllowed(request.method, path, allowed)
      : errors.notFound(request.method, path);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'electrify-service', version: '0.1.0', description: API_DESCRIPTION },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key made by `npm start` (first start) or `npm run keys -- create`',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  const limiter = new FixedWindowRateLimiter(config.RATE_LIMIT_PER_MINUTE, 60_000);
  // Authentication and the per-key rate limit in one synchronous hook: a request that is let through
  // costs a map lookup for its key, one for its window, and three headers.
  const authenticate: OnRequestHook = (request, reply, done) => {
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
    if (window.count > limiter.limit) return done(errors.rateLimited(resetSeconds));
    done();
  };
  // Hooks are attached per route when it is registered, so a request pays nothing to find out whether
  // they apply. Public routes (and paths no route serves, answered 404 or 405) need no key and have no
  // limit, so a busy client can never make the health check fail.
  app.addHook('onRoute', (route) => {
    documentErrors(route, false);
    if (!route.config?.public) route.onRequest = [authenticate, ...hookList(route.onRequest)];
  });

  // The reference page's files come from node_modules (nothing from the network), and it is public like
  // the spec it renders. Its routes are the plugin's own, so they cannot say `config.public`: this scope
  // takes off the key check (and with it the rate limit) that the root's onRoute hook has just added.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.onRequest = hookList(route.onRequest).filter((hook) => hook !== authenticate);
    });
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      theme: { title: 'electrify-service API reference' },
      uiConfig: {
        layout: 'BaseLayout',
        docExpansion: 'list',
        defaultModelsExpandDepth: 0,
        displayRequestDuration: true,
      },
    });
  });

  let spec: string | undefined;
  app.get('/spec.json', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    spec ??= JSON.stringify(app.swagger());
    return reply.type('application/json; charset=utf-8').send(spec);
  });

  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        security: [],
        tags: ['service'],
        summary: 'Liveness and the snapshot being served',
        response: { 200: healthSchema },
      },
    },
    async () => {
      const snapshot = snapshots.current();
      return {
        status: snapshot ? ('ok' as const) : ('no-snapshot' as const),
        snapshot: snapshot ? { id: snapshot.id, createdAt: snapshot.createdAt } : null,
      };
    },
  );

  const today = asOfDateClock(config.AS_OF_DATE, now);
  const responses = new SnapshotResponseCache(
    deps.responseCache ?? {
      maxBytes: config.RESPONSE_CACHE_MB * 1024 * 1024,
      maxEntries: RESPONSE_CACHE_MAX_ENTRIES,
    },
  );

  // Pins the request to the snapshot being served and answers it from the response cache or with 304
  // when it can, before the query is parsed or the handler runs. A route's answer key (if it names the
  // request) stands for the URL in both the cache and the ETag.
  const pinSnapshot =
    (answerKey: ((request: FastifyRequest) => string | undefined) | undefined): OnRequestHook =>
    (request, reply, done) => {
      const snapshot = snapshots.current();
      if (snapshot === null) return done(errors.snapshotUnavailable());
      const date = today();
      const conditional = request.method === 'GET' || request.method === 'HEAD';
      const pinned = { snapshot, asOfDate: date, etag: null as string | null, cacheKey: request.url };
      request.pinned = pinned;
      const named =
        conditional && answerKey !== undefined
          ? responses.nameFor(snapshot, date, request.url, () => answerKey(request))
          : undefined;
      if (named !== undefined) pinned.cacheKey = named;
      if (request.method === 'GET') {
        const cached = responses.lookup(snapshot, date, pinned.cacheKey);
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
    };

  // A POST named by its route's `bodyAnswerKey` (once its body is parsed): answered from the response
  // cache when the same name was answered before under this snapshot and date, else tagged for its ETag
  // and kept like a GET's answer.
  const answerByBody =
    (bodyAnswerKey: (request: FastifyRequest) => string | undefined): PreHandlerHook =>
    (request, reply, done) => {
      const pinned = request.pinned!;
      const named = bodyAnswerKey(request);
      if (named === undefined) return done();
      // The route's path keeps bodies of different routes (and GET URLs) apart.
      pinned.cacheKey = `POST ${request.routeOptions.url}\n${named}`;
      const cached = responses.lookup(pinned.snapshot, pinned.asOfDate, pinned.cacheKey);
      if (cached !== undefined) {
        void reply.headers(cached.headers).send(cached.body);
        return;
      }
      pinned.etag = dataEtag(pinned.snapshot.id, pinned.asOfDate, pinned.cacheKey);
      done();
    };

  // Tags a data response with its snapshot (and a 200 GET/HEAD or named POST with its ETag), and keeps
  // its 200 answer (but a HEAD's) for the next identical request. Errors are never kept; nor is what a
  // route opts out of.
  const tagDataResponse =
    (cacheResponse: ((request: FastifyRequest) => boolean) | undefined): OnSendHook =>
    (request, reply, payload, done) => {
      const pinned = request.pinned;
      if (pinned === null) return done(null, payload);
      reply.header('x-snapshot-id', pinned.snapshot.id);
      if (pinned.etag === null || reply.statusCode !== 200) return done(null, payload);
      reply.header('etag', pinned.etag).header('cache-control', DATA_CACHE_CONTROL);
      const encoded = typeof payload === 'string' || Buffer.isBuffer(payload);
      if (request.method === 'HEAD' || !encoded || (cacheResponse !== undefined && !cacheResponse(request))) {
        return done(null, payload);
      }
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      const headers = Object.fromEntries(
        Object.entries(reply.getHeaders()).filter(([name]) => !PER_REQUEST_HEADERS.has(name)),
      );
      responses.store(pinned.snapshot, pinned.asOfDate, pinned.cacheKey, {
        body,
        headers,
        etag: pinned.etag,
      });
      done(null, body);
    };

  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      documentErrors(route, true);
      const onRequest = hookList(route.onRequest);
      // After authentication (added by the root's onRoute, which runs first), before the route's own.
      const at = onRequest[0] === authenticate ? 1 : 0;
      route.onRequest = [
        ...onRequest.slice(0, at),
        pinSnapshot(route.config?.answerKey),
        ...onRequest.slice(at),
      ];
      route.onSend = [tagDataResponse(route.config?.cacheResponse), ...hookList(route.onSend)];
      const bodyAnswerKey = route.config?.bodyAnswerKey;
      if (bodyAnswerKey !== undefined && route.method === 'POST') {
        route.preHandler = [answerByBody(bodyAnswerKey), ...hookList(route.preHandler)];
      }
    });
    for (const module of deps.apiModules) {
      await scope.register(async (child) => {
        // The reference page groups routes by tag: each module's under its own name, unless it says otherwise.
        child.addHook('onRoute', (route) => {
          const schema = (route.schema ??= {}) as { tags?: string[] };
          schema.tags ??= [module.serving.name];
        });
        await module.register(child, moduleContext(module, config));
      });
    }
  });

  return app;
}

function moduleContext<T>(module: ApiModule<T>, config: Config): ApiModuleContext<T> {
  const pinned = (request: FastifyRequest) => {
    // Only reachable from a route registered outside the module's context: a wiring bug, not a client's.
    if (request.pinned === null) throw new Error(`module ${module.serving.name} used outside its routes`);
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
  };
}
