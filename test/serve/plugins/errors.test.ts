import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteGroup, ZodApp } from '../../../serve/route-group.ts';
import { buildApp } from '../../../serve/app.ts';
import { errors } from '../../../serve/errors.ts';
import { loadSnapshot } from '../../../serve/snapshot/snapshot-holder.ts';
import { memoryReader, testConfig } from '../../support/serve-fixtures.ts';

const KEY = 'error-plugin-test-key-0123456789';
const withKey = { authorization: `Bearer ${KEY}` };

/** A module answering each of the service's 503s, and a validated query. */
const failingModule: RouteGroup<unknown> = {
  loader: { name: 'failing', tables: [], load: async () => ({}) },
  register(scope) {
    scope.get('/fail/geocoder', async () => {
      throw errors.geocoderUnavailable('The address service is unavailable; retry shortly.');
    });
    scope.get('/fail/not-ready', async () => {
      throw errors.moduleNotReady('Not in the data being served yet; retry later');
    });
    scope.get('/fail/overloaded', async () => {
      throw errors.overloaded('Too busy; retry in a second', 1);
    });
    scope.get(
      '/fail/validated',
      {
        schema: {
          querystring: z.object({ n: z.coerce.number().int().max(3), language: z.string().optional() }),
        },
      },
      async () => ({ ok: true }),
    );
  },
};

const logged: Record<string, unknown>[] = [];
let app: ZodApp;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logged.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const snapshot = await loadSnapshot(memoryReader('snap-a', {}), [failingModule.loader]);
  app = await buildApp({
    config: testConfig(),
    logger: pino({ level: 'info' }, sink),
    snapshots: { current: () => snapshot },
    routeGroups: [failingModule],
    keyStore: {
      authenticate: (given) => (given === KEY ? { id: 'test', name: 'test', reviewer: false } : null),
    },
  });
});
afterAll(() => app.close());

/** The code the error handler logged for the request to the route `url` (each request's line names its route). */
function codeLoggedFor(url: string): unknown {
  const reqId = logged.find((line) => line.msg === 'request' && line.route === url)?.reqId;
  expect(reqId).toBeDefined();
  return logged.find((line) => line.reqId === reqId && line.code !== undefined)?.code;
}

describe('the error plugin', () => {
  it.each([
    ['/fail/geocoder', 'GEOCODER_UNAVAILABLE', '30', 'address'],
    ['/fail/not-ready', 'MODULE_NOT_READY', '60', undefined],
    ['/fail/overloaded', 'OVERLOADED', '1', undefined],
  ])(
    'answers %s with 503, Retry-After and the Error body, and logs its own code',
    async (url, code, retry, field) => {
      const response = await app.inject({ method: 'GET', url, headers: withKey });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe(retry);
      expect(response.headers['x-snapshot-id']).toBe('snap-a');
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(
        field === undefined
          ? ['error', 'message', 'statusCode']
          : ['error', 'field', 'message', 'statusCode'],
      );
      expect(body).toMatchObject({
        statusCode: 503,
        error: 'Service Unavailable',
        ...(field ? { field } : {}),
      });
      expect(codeLoggedFor(url)).toBe(code);
      expect(logged.some((line) => line.code === 'INTERNAL')).toBe(false);
    },
  );

  it("localizes a route's Fastify-validated query like every other 400", async () => {
    const english = await app.inject({ method: 'GET', url: '/fail/validated?n=9', headers: withKey });
    expect(english.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'n: must be at most 3',
      field: 'n',
    });
    const spanish = await app.inject({
      method: 'GET',
      url: '/fail/validated?n=x&language=es',
      headers: withKey,
    });
    expect(spanish.json()).toMatchObject({ message: 'n: debe ser un número entero', field: 'n' });
  });

  it('answers paths no route serves, 404 or 405, in the same shape and without a key', async () => {
    const missing = await app.inject({ method: 'GET', url: '/fail/nothing' });
    expect(missing.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET /fail/nothing not found',
    });
    const wrongMethod = await app.inject({ method: 'POST', url: '/fail/geocoder' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
  });

  it('documents 400 on validated routes and 500 on every route', async () => {
    const { paths } = (await app.inject({ method: 'GET', url: '/spec.json' })).json();
    expect(Object.keys(paths['/fail/validated'].get.responses)).toEqual(['400', '401', '429', '500', '503']);
    expect(Object.keys(paths['/fail/geocoder'].get.responses)).toEqual(['401', '429', '500', '503']);
    expect(Object.keys(paths['/healthz'].get.responses)).toEqual(['200', '500', '503']);
  });
});
