import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import type { RouteGroup } from '../../../serve/route-group.ts';
import { createRouteGroups } from '../../../serve/route-groups.ts';
import { buildApp } from '../../../serve/app.ts';
import { authPlugin } from '../../../serve/plugins/auth.ts';
import { memoryReader, silentLogger, testConfig } from '../../support/serve-fixtures.ts';
import { loadSnapshot } from '../../../serve/snapshot/snapshot-holder.ts';
import { specRemModel } from '../../support/rem-model.ts';

const KEY = 'auth-plugin-test-key-0123456789';
const keyStore = {
  authenticate: (given: string) => (given === KEY ? { id: 'test', name: 'test', reviewer: false } : null),
};
const withKey = { authorization: `Bearer ${KEY}` };

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/**
 * A module trying every way a route could hope to skip the key: a route config saying `public` (the
 * old shell's opt-out), a schema with no security, its own onRequest hook answering first, and a route
 * in a nested context and in a skip-override plugin of its own.
 */
function escapingModule(ran: string[]): RouteGroup<unknown> {
  return {
    loader: { name: 'escaping', tables: [], load: async () => ({}) },
    async register(scope) {
      scope.get('/escape/public', { config: { public: true } as never }, async () => ({ ok: true }));
      scope.get('/escape/no-security', { schema: { security: [] } }, async () => ({ ok: true }));
      scope.get(
        '/escape/own-hook',
        {
          onRequest: (_request, reply, done) => {
            ran.push('own onRequest');
            void reply.send({ answered: 'by the route hook' });
            done();
          },
        },
        async () => ({ ok: true }),
      );
      await scope.register(async (nested) => {
        nested.get('/escape/nested', async () => ({ ok: true }));
      });
      await scope.register(
        fp(async (flat) => {
          flat.addHook('onRequest', (_request, _reply, done) => {
            ran.push('plugin onRequest');
            done();
          });
          flat.get('/escape/skip-override', async () => ({ ok: true }));
        }),
      );
    },
  };
}

async function appWith(modules: RouteGroup<unknown>[]) {
  const snapshot = await loadSnapshot(
    memoryReader('snap-a', {}),
    modules.map((module) => module.loader),
  );
  return buildApp({
    config: testConfig({ RATE_LIMIT_PER_MINUTE: '2' }),
    logger: silentLogger(),
    snapshots: { current: () => snapshot },
    routeGroups: modules,
    keyStore,
  });
}

describe('the auth plugin', () => {
  it('applies to the scope that registers it and to nothing outside it', async () => {
    const server = Fastify();
    app = server;
    // The plugin documents its errors with zod schemas, as every route of this service is.
    server.setValidatorCompiler(validatorCompiler);
    server.setSerializerCompiler(serializerCompiler);
    server.get('/outside', async () => ({ outside: true }));
    await server.register(async (scope) => {
      await scope.register(authPlugin, { keyStore, perMinute: 10 });
      scope.get('/inside', async (request) => ({ key: request.apiKey }));
    });
    const outside = await server.inject({ method: 'GET', url: '/outside' });
    expect(outside.statusCode).toBe(200);
    expect(outside.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await server.inject({ method: 'GET', url: '/inside' })).statusCode).toBe(401);
    const inside = await server.inject({ method: 'GET', url: '/inside', headers: withKey });
    expect(inside.json()).toEqual({ key: { id: 'test', name: 'test', reviewer: false } });
    expect(inside.headers['x-ratelimit-limit']).toBe('10');
    expect(inside.headers['x-ratelimit-remaining']).toBe('9');
  });

  it('guards every route of the API scope, however the route is declared, before its own hooks run', async () => {
    const ran: string[] = [];
    app = await appWith([escapingModule(ran)]);
    const paths = ['public', 'no-security', 'own-hook', 'nested', 'skip-override'].map((p) => `/escape/${p}`);
    for (const url of paths) {
      for (const headers of [{}, { authorization: 'Bearer not-a-key-of-this-server' }]) {
        const response = await app.inject({ method: 'GET', url, headers });
        expect(response.statusCode, url).toBe(401);
        expect(response.json().error).toBe('Unauthorized');
      }
    }
    // Not one of the module's own hooks ran for a request without a valid key.
    expect(ran).toEqual([]);
    const answered = await app.inject({ method: 'GET', url: '/escape/own-hook', headers: withKey });
    expect(answered.json()).toEqual({ answered: 'by the route hook' });
    expect(ran).toContain('own onRequest');
  });

  it('asks for a key on every route the route groups document, and for none elsewhere', async () => {
    app = await buildApp({
      config: testConfig(),
      logger: silentLogger(),
      snapshots: { current: () => null },
      routeGroups: createRouteGroups({ remModel: specRemModel() }),
      keyStore,
    });
    const spec = (await app.inject({ method: 'GET', url: '/spec.json' })).json();
    const operations = Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => ({ path, method: method.toUpperCase() })),
    );
    expect(operations.length).toBeGreaterThan(10);
    for (const { path, method } of operations) {
      const response = await app.inject({ method: method as 'GET', url: path });
      if (path === '/healthz') {
        expect(response.json().status).toBe('no-snapshot');
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      } else {
        expect(path).toMatch(/^\/api\//);
        expect(response.statusCode, `${method} ${path}`).toBe(401);
        expect(spec.paths[path][method.toLowerCase()].responses['401']).toBeDefined();
      }
    }
    for (const url of ['/spec.json', '/docs', '/docs/json']) {
      const response = await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer wrong' } });
      expect(response.statusCode, url).toBe(200);
    }
  });

  it('limits each key per minute on the API scope only', async () => {
    app = await appWith([escapingModule([])]);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await app.inject({ method: 'GET', url: '/escape/nested', headers: withKey })).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 429]);
    const healthz = await app.inject({ method: 'GET', url: '/healthz', headers: withKey });
    expect(healthz.statusCode).toBe(200);
    expect(healthz.headers['x-ratelimit-remaining']).toBeUndefined();
  });
});
