import SwaggerParser from '@apidevtools/swagger-parser';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { buildApp } from '../../serve/app.ts';
import { createRouteGroups } from '../../serve/route-groups.ts';
import type { ZodApp } from '../../serve/route-group.ts';
import { KeyStore } from '../../serve/auth/key-store.ts';
import { addKey, revokeKey } from '../../serve/auth/key-commands.ts';
import { keyFilePath, readKeyFile, writeKeyFile } from '../../serve/auth/key-file.ts';
import { SnapshotHolder } from '../../serve/snapshot/snapshot-holder.ts';
import {
  MemorySnapshotSource,
  memoryReader,
  programsModule,
  silentLogger,
  testConfig,
} from '../support/serve-fixtures.ts';
import { specRemModel } from '../support/rem-model.ts';

const STATIC_KEY = 'static-test-key-0123456789';
const auth = { authorization: `Bearer ${STATIC_KEY}` };

let lakeDir: string;
let source: MemorySnapshotSource;
let holder: SnapshotHolder;
let keyStore: KeyStore;
let app: ZodApp;

async function start(env: Record<string, string> = {}) {
  const logger = silentLogger();
  const config = testConfig({ LAKE_DIR: lakeDir, API_KEYS: STATIC_KEY, ...env });
  const module = programsModule();
  holder = new SnapshotHolder({ source, loaders: [module.loader], pollMs: 60_000, logger });
  await holder.start();
  keyStore = await KeyStore.open({
    file: keyFilePath(lakeDir),
    staticKeys: config.API_KEYS,
    pollMs: 60_000,
    logger,
  });
  app = await buildApp({ config, logger, snapshots: holder, routeGroups: [module], keyStore });
  await app.ready();
}

it.beforeEach(async ({ tempDir }) => {
  lakeDir = tempDir;
  source = new MemorySnapshotSource();
});

afterEach(async () => {
  await app?.close();
  holder?.close();
  keyStore?.close();
});

describe('GET /spec.json', () => {
  it('is a valid OpenAPI 3 document, served without a key, with the error schema and the routes', async () => {
    await start();
    const res = await app.inject({ method: 'GET', url: '/spec.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const spec = res.json();
    await SwaggerParser.validate(structuredClone(spec));
    expect(spec.openapi).toBe('3.0.3');
    expect(spec.components.schemas.Error).toMatchObject({
      type: 'object',
      required: ['statusCode', 'error', 'message'],
      properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, field: { type: 'string' } },
    });
    expect(spec.components.securitySchemes.bearerAuth).toEqual({
      type: 'http',
      scheme: 'bearer',
      description: 'An API key made by `npm start` (first start) or `npm run keys -- create`',
    });
    expect(Object.keys(spec.paths).sort()).toEqual([
      '/healthz',
      '/v1/broken',
      '/v1/estimate',
      '/v1/programs',
    ]);
    const programs = spec.paths['/v1/programs'].get;
    expect(programs.parameters).toEqual([
      expect.objectContaining({ name: 'minAmount', in: 'query', required: false }),
    ]);
    for (const status of ['400', '401', '429', '500', '503']) {
      expect(programs.responses[status].content['application/json'].schema).toEqual({
        allOf: [{ $ref: '#/components/schemas/Error' }],
        example: expect.objectContaining({ statusCode: Number(status) }),
      });
    }
    expect(programs.responses['401'].description).toBe('Missing, invalid or revoked API key');
    // The documented example is the body the shell really sends.
    const unauthorized = await app.inject({ method: 'GET', url: '/v1/programs' });
    expect(programs.responses['401'].content['application/json'].schema.example).toEqual(unauthorized.json());
    expect(spec.paths['/healthz'].get.security).toEqual([]);
    expect(spec.paths['/healthz'].get.responses['401']).toBeUndefined();
  });

  it("is valid OpenAPI 3 with the service's own route groups mounted", async () => {
    const own = await buildApp({
      config: testConfig(),
      logger: silentLogger(),
      snapshots: { current: () => null },
      routeGroups: createRouteGroups({ remModel: specRemModel() }),
      keyStore: { authenticate: () => null },
    });
    try {
      const spec = (await own.inject({ method: 'GET', url: '/spec.json' })).json();
      await SwaggerParser.validate(structuredClone(spec));
      expect(
        spec.paths['/api/v1/calculator'].get.responses['401'].content['application/json'].schema.allOf,
      ).toEqual([{ $ref: '#/components/schemas/Error' }]);
      // One operationId per operation (the /docs page expands operations sharing one together).
      const operations = Object.entries(
        spec.paths as Record<string, Record<string, { operationId?: string }>>,
      ).flatMap(([url, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ at: `${method} ${url}`, ...operation })),
      );
      expect(operations.filter((operation) => operation.operationId === undefined)).toEqual([]);
      const ids = operations.map((operation) => operation.operationId);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
      expect(spec.paths['/api/v1/lake/{table}.parquet']).toMatchObject({
        get: { operationId: 'getLakeTableFile' },
        head: { operationId: 'getLakeTableFile-head' },
      });
    } finally {
      await own.close();
    }
  });
});

const MISSING_KEY_EN =
  'Missing API key: send the header "Authorization: Bearer <key>", with the key the server printed on its ' +
  'first npm start or one made with "npm run keys -- create --name <name>" where the server runs';
const MISSING_KEY_ES =
  'Falta la clave de API: envíe la cabecera "Authorization: Bearer <clave>", con la clave que el servidor ' +
  'imprimió en su primer npm start o una creada con "npm run keys -- create --name <nombre>" donde corre el servidor';
const INVALID_KEY_EN =
  'Invalid or revoked API key: send the header "Authorization: Bearer <key>", with the key the server ' +
  'printed on its first npm start or one made with "npm run keys -- create --name <name>" where the server runs';
const INVALID_KEY_ES =
  'Clave de API no válida o revocada: envíe la cabecera "Authorization: Bearer <clave>", con la clave que el ' +
  'servidor imprimió en su primer npm start o una creada con "npm run keys -- create --name <nombre>" donde ' +
  'corre el servidor';

describe('authentication', () => {
  it('answers 401 with the error body when the key is missing, saying how to get one and send it', async () => {
    await start();
    source.publish(memoryReader('snap-a'));
    await holder.refresh();
    const res = await app.inject({ method: 'GET', url: '/v1/programs' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: MISSING_KEY_EN });
    const spanish = await app.inject({ method: 'GET', url: '/v1/programs?language=es' });
    expect(spanish.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: MISSING_KEY_ES });
  });

  it('answers 401 for a wrong key and for a non-Bearer scheme, in the language of the query', async () => {
    await start();
    const refusals = [
      ['Bearer not-a-key-of-this-server', '', INVALID_KEY_EN, 'Bearer error="invalid_token"'],
      ['Bearer not-a-key-of-this-server', '?language=es', INVALID_KEY_ES, 'Bearer error="invalid_token"'],
      [`Basic ${STATIC_KEY}`, '', MISSING_KEY_EN, 'Bearer'],
    ] as const;
    for (const [authorization, query, message, challenge] of refusals) {
      const res = await app.inject({
        method: 'GET',
        url: `/v1/programs${query}`,
        headers: { authorization },
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe(challenge);
      expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message });
    }
  });

  it('accepts a stored key and refuses it once revoked, without a restart', async () => {
    await start();
    source.publish(memoryReader('snap-a'));
    await holder.refresh();
    const file = keyFilePath(lakeDir);
    const created = addKey(await readKeyFile(file), 'partner', new Date('2026-11-21T10:00:00Z'));
    await writeKeyFile(file, created.file);
    await keyStore.reload();
    const headers = { authorization: `Bearer ${created.key}` };
    expect((await app.inject({ method: 'GET', url: '/v1/programs', headers })).statusCode).toBe(200);

    await writeKeyFile(file, revokeKey(await readKeyFile(file), 'partner', new Date()).file);
    await keyStore.reload();
    const res = await app.inject({ method: 'GET', url: '/v1/programs', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(INVALID_KEY_EN);
  });

  it('lets /healthz and /spec.json through without a key', async () => {
    await start();
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json().status).toBe('no-snapshot');
    expect((await app.inject({ method: 'GET', url: '/spec.json' })).statusCode).toBe(200);
  });
});

describe('GET /healthz', () => {
  it('reports no snapshot before the first one is published, then the one being served', async () => {
    await start();
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({
      status: 'no-snapshot',
      snapshot: null,
      families: { programs: false },
      precompute: null,
      lake: {
        current: null,
        reachable: true,
        error: null,
        since: null,
        announcements: 'off',
        announced: null,
      },
    });
    source.publish(memoryReader('snap-a', undefined, '2026-11-20T08:30:00.000Z'));
    await holder.refresh();
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({
      status: 'ok',
      snapshot: { id: 'snap-a', createdAt: '2026-11-20T08:30:00.000Z' },
      families: { programs: true },
      precompute: null,
      lake: {
        current: 'snap-a',
        reachable: true,
        error: null,
        since: null,
        announcements: 'off',
        announced: null,
      },
    });
  });
});

describe('data routes', () => {
  it('answer 503 with the error body while no snapshot is published', async () => {
    await start();
    const res = await app.inject({ method: 'GET', url: '/v1/programs', headers: auth });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'No data snapshot is published yet; retry shortly',
    });
  });

  it('carry X-Snapshot-Id and a strong ETag, and answer a matching If-None-Match with 304', async () => {
    await start();
    source.publish(memoryReader('snap-a'));
    await holder.refresh();
    const res = await app.inject({ method: 'GET', url: '/v1/programs?minAmount=2000', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-snapshot-id']).toBe('snap-a');
    expect(res.json()).toEqual({
      snapshot: 'snap-a',
      asOfDate: '2026-11-21',
      programs: [
        { snapshot: 'snap-a', program: 'program-1', amountUsd: 2000 },
        { snapshot: 'snap-a', program: 'program-2', amountUsd: 3000 },
      ],
    });
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(res.headers['cache-control']).toBe('private, no-cache');

    const again = await app.inject({
      method: 'GET',
      url: '/v1/programs?minAmount=2000',
      headers: { ...auth, 'if-none-match': `"other", ${etag}` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['x-snapshot-id']).toBe('snap-a');

    const otherQuery = await app.inject({
      method: 'GET',
      url: '/v1/programs?minAmount=0',
      headers: { ...auth, 'if-none-match': etag },
    });
    expect(otherQuery.statusCode).toBe(200);
    expect(otherQuery.headers.etag).not.toBe(etag);

    const star = await app.inject({
      method: 'GET',
      url: '/v1/programs?minAmount=2000',
      headers: { ...auth, 'if-none-match': '*' },
    });
    expect(star.statusCode).toBe(200);
  });

  it('answer 304 for the same request written differently (a trailing "&")', async () => {
    await start();
    source.publish(memoryReader('snap-a'));
    await holder.refresh();
    const url = '/v1/programs?minAmount=1000';
    const first = await app.inject({ method: 'GET', url, headers: auth });
    const reordered = await app.inject({
      method: 'GET',
      url: '/v1/programs?minAmount=1000&',
      headers: { ...auth, 'if-none-match': first.headers.etag as string },
    });
    expect(reordered.statusCode).toBe(304);
  });

  it('tag a POST with X-Snapshot-Id but no ETag, and give errors no ETag', async () => {
    await start();
    source.publish(memoryReader('snap-a'));
    await holder.refresh();
    const post = await app.inject({
      method: 'POST',
      url: '/v1/estimate',
      headers: auth,
      payload: { household: { income: 52000, zip: '80212' } },
    });
    expect(post.statusCode).toBe(200);
    expect(post.json()).toEqual({ total: 6000 });
    expect(post.headers['x-snapshot-id']).toBe('snap-a');
    expect(post.headers.etag).toBeUndefined();
    const invalid = await app.inject({ method: 'GET', url: '/v1/programs?minAmount=x', headers: auth });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.headers.etag).toBeUndefined();
  });

  it('get a new ETag from a new snapshot', async () => {
    await start();
    source.publish(memoryReader('snap-a'));
    await holder.refresh();
    const first = await app.inject({ method: 'GET', url: '/v1/programs', headers: auth });
    source.publish(memoryReader('snap-b'));
    await holder.refresh();
    const second = await app.inject({
      method: 'GET',
      url: '/v1/programs',
      headers: { ...auth, 'if-none-match': first.headers.etag as string },
    });
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-snapshot-id']).toBe('snap-b');
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });
});

describe('errors', () => {
  beforeEach(async () => {
    await start();
    source.publish(memoryReader('snap-a'));
    await holder.refresh();
  });

  it('a bad query value is a 400 naming the field', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/programs?minAmount=-5', headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'minAmount: must be at least 0',
      field: 'minAmount',
    });
  });

  it('a bad nested body field is a 400 naming its path', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/estimate',
      headers: auth,
      payload: { household: { income: 52000, zip: '1234' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', field: 'household.zip' });
    expect(res.json().message).toMatch(/^household\.zip: /);
  });

  const SEND_JSON_EN = 'send one JSON object with the header "Content-Type: application/json"';
  const SEND_JSON_ES = 'envíe un único objeto JSON con la cabecera "Content-Type: application/json"';

  it.each([
    [
      '{"household": ',
      '',
      `body: is not valid JSON (line 1, column 15: Unexpected end of JSON input); ${SEND_JSON_EN}`,
    ],
    [
      '{\n  "household": {"income": 52000 "zip": "80212"}\n}',
      '',
      `body: is not valid JSON (line 2, column 33: Expected ',' or '}' after property value); ${SEND_JSON_EN}`,
    ],
    [
      "{'household': {}}",
      '?language=es',
      `body: no es JSON válido (línea 1, columna 2: se esperaba un nombre de propiedad o '}'); ${SEND_JSON_ES}`,
    ],
    // The body's own language, though the body cannot be read.
    [
      '{"language": "es", "household": {"income": 52000,]}',
      '',
      `body: no es JSON válido (línea 1, columna 50: se esperaba un nombre de propiedad entre comillas dobles); ${SEND_JSON_ES}`,
    ],
    // JSON.parse names no position for an unexpected token: its words alone.
    ['{"household": {"income": nul}}', '', `body: is not valid JSON (Unexpected token '}'); ${SEND_JSON_EN}`],
    ['', '', `body: is empty; ${SEND_JSON_EN}`],
    ['', '?language=es', `body: está vacío; ${SEND_JSON_ES}`],
    [
      '{"household": {"income": 52000, "zip": "80212", "__proto__": {"admin": true}}}',
      '',
      'body: a "__proto__" key, or a "constructor" key holding "prototype", is refused',
    ],
  ])(
    'a JSON body %j (query "%s") is a 400 naming the body, saying where it breaks and what to send',
    async (payload, query, message) => {
      const res = await app.inject({
        method: 'POST',
        url: `/v1/estimate${query}`,
        headers: { ...auth, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message, field: 'body' });
    },
  );

  it('a body without Content-Type is a 415 naming it, saying to send JSON, in the language of the query', async () => {
    const body = JSON.stringify({ household: { income: 52000, zip: '80212' } });
    for (const [query, message] of [
      ['', `content-type: the body must be JSON; ${SEND_JSON_EN}`],
      ['?language=es', `content-type: el cuerpo debe ser JSON; ${SEND_JSON_ES}`],
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: `/v1/estimate${query}`,
        headers: auth,
        payload: body,
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        statusCode: 415,
        error: 'Unsupported Media Type',
        message,
        field: 'content-type',
      });
    }
  });

  it('a malformed URL, an unsupported media type and an oversized body keep the shape', async () => {
    const badUrl = await app.inject({ method: 'GET', url: '/v1/%zz', headers: auth });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: "'/v1/%zz' is not a valid url component",
    });
    const csv = await app.inject({
      method: 'POST',
      url: '/v1/estimate',
      headers: { ...auth, 'content-type': 'text/csv' },
      payload: 'income,zip\n52000,80212',
    });
    expect(csv.json()).toEqual({
      statusCode: 415,
      error: 'Unsupported Media Type',
      message: `content-type: the body must be JSON; ${SEND_JSON_EN}`,
      field: 'content-type',
    });
    const huge = await app.inject({
      method: 'POST',
      url: '/v1/estimate',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ household: { income: 1, zip: '80212', notes: 'x'.repeat(1_100_000) } }),
    });
    expect(huge.json()).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'Request body is too large',
      field: 'body',
    });
  });

  it('an unknown route is a 404, with or without a key', async () => {
    const withoutKey = await app.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(withoutKey.statusCode).toBe(404);
    const res = await app.inject({ method: 'GET', url: '/v1/nothing-here?x=1', headers: auth });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET /v1/nothing-here not found',
    });
  });

  it('a public path with another method is a 405 without a key', async () => {
    const res = await app.inject({ method: 'PUT', url: '/healthz' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('a known path with another method is a 405 with Allow', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/v1/programs', headers: auth });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json()).toEqual({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: 'Method DELETE is not allowed on /v1/programs; allowed: GET, HEAD',
    });
  });

  it('an internal failure is a generic 500 that does not leak the cause', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/broken', headers: auth });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Internal server error',
    });
    expect(res.body).not.toContain('hunter2');
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After and the error body once a key exceeds its per-minute limit', async () => {
    await start({ RATE_LIMIT_PER_MINUTE: '3' });
    source.publish(memoryReader('snap-a'));
    await holder.refresh();
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await app.inject({ method: 'GET', url: '/v1/programs', headers: auth })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await app.inject({ method: 'GET', url: '/v1/programs', headers: auth });
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: `Rate limit exceeded for this API key; retry in ${retryAfter} s`,
    });
    // The limit is per key: another key is unaffected, and public routes are never limited.
    const file = keyFilePath(lakeDir);
    const other = addKey(await readKeyFile(file), 'other', new Date());
    await writeKeyFile(file, other.file);
    await keyStore.reload();
    const otherRes = await app.inject({
      method: 'GET',
      url: '/v1/programs',
      headers: { authorization: `Bearer ${other.key}` },
    });
    expect(otherRes.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
