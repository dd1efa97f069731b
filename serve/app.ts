import Fastify, { type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import rateLimit from '@fastify/rate-limit';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../schemas/config.ts';
import type { Logger } from '../lib/log.ts';
import { asOfDate } from '../lib/clock.ts';
import type { ApiModule, ApiModuleContext, ZodApp } from './api-module.ts';
import type { KeyAuthenticator } from './auth/key-store.ts';
import { bearerToken } from './auth/bearer-token.ts';
import { errorBodySchema, errors, toHttpError } from './errors.ts';
import { dataEtag, ifNoneMatchMatches } from './http/etag.ts';
import type { LoadedSnapshot } from './snapshot/snapshot-holder.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  snapshots: { current(): LoadedSnapshot | null };
  apiModules: readonly ApiModule<unknown>[];
  keyStore: KeyAuthenticator;
  /** The clock AS_OF_DATE falls back to (tests fix it). */
  now?: () => Date;
}

const healthSchema = z
  .object({
    status: z.enum(['ok', 'no-snapshot']).describe('"no-snapshot" until the first snapshot is loaded'),
    snapshot: z.object({ id: z.string(), createdAt: z.string() }).nullable(),
  })
  .meta({ id: 'Health' });

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the message and `field` name the parameter at fault',
  401: 'Missing, invalid or revoked API key',
  429: "Rate limit of this API key exceeded; retry after the Retry-After header's seconds",
  500: 'Internal error (details are logged, not returned)',
  503: "No data snapshot is published yet; retry after the Retry-After header's seconds",
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
  for (const status of statuses) {
    response[status] ??= {
      description: ERROR_DESCRIPTIONS[status],
      content: { 'application/json': { schema: errorBodySchema } },
    };
  }
}

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
  app.setValidatorCompiler(validatorCompiler);
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
      info: {
        title: 'electrify-service',
        version: '0.1.0',
        description:
          'Electrification incentives, savings and health-impact API, answered from a published snapshot',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  await app.register(rateLimit, {
    global: false,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    // One bucket per key, so clients behind one address do not share a limit; public routes are exempt
    // so a busy client can never make the health check fail.
    keyGenerator: (request: FastifyRequest) => request.apiKey?.id ?? request.ip,
    allowList: (request: FastifyRequest) => request.routeOptions.config.public === true,
    errorResponseBuilder: (_request, context) => errors.rateLimited(Math.ceil(context.ttl / 1000)),
  });

  // Public routes, and paths no route serves (answered 404 or 405), need no key.
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public || request.is404) return;
    const token = bearerToken(request.headers.authorization);
    if (token === null) throw errors.missingKey();
    const key = keyStore.authenticate(token);
    if (key === null) throw errors.invalidKey();
    request.apiKey = key;
  });
  app.addHook('onRequest', app.rateLimit());
  app.addHook('onRoute', (route) => documentErrors(route, false));

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

  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => documentErrors(route, true));
    scope.addHook('onRequest', async (request, reply) => {
      const snapshot = snapshots.current();
      if (snapshot === null) throw errors.snapshotUnavailable();
      const date = asOfDate(config.AS_OF_DATE, now());
      const conditional = request.method === 'GET' || request.method === 'HEAD';
      const etag = conditional ? dataEtag(snapshot.id, date, request.url) : null;
      request.pinned = { snapshot, asOfDate: date, etag };
      if (etag !== null && ifNoneMatchMatches(request.headers['if-none-match'], etag)) {
        return reply.code(304).header('etag', etag).send();
      }
    });
    scope.addHook('onSend', async (request, reply, payload) => {
      if (request.pinned === null) return payload;
      reply.header('x-snapshot-id', request.pinned.snapshot.id);
      if (request.pinned.etag !== null && reply.statusCode === 200) {
        reply.header('etag', request.pinned.etag).header('cache-control', 'private, no-cache');
      }
      return payload;
    });
    for (const module of deps.apiModules) {
      await scope.register(async (child) => module.register(child, moduleContext(module, config)));
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
