import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ZodApp } from '../../../serve/route-group.ts';
import { buildApp } from '../../../serve/app.ts';
import { loadSnapshot, type LoadedSnapshot } from '../../../serve/snapshot/snapshot-holder.ts';
import { memoryReader, programsModule, silentLogger, testConfig } from '../../support/serve-fixtures.ts';

const KEY = 'healthz-test-key-0123456789';

let app: ZodApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the health-check plugin', () => {
  let snapshot: LoadedSnapshot | null;
  let draining: boolean;
  beforeEach(async () => {
    snapshot = null;
    draining = false;
    app = await buildApp({
      config: testConfig({ RATE_LIMIT_PER_MINUTE: '1' }),
      logger: silentLogger(),
      snapshots: { current: () => snapshot },
      routeGroups: [programsModule()],
      keyStore: {
        authenticate: (given) => (given === KEY ? { id: 'test', name: 'test', reviewer: false } : null),
      },
      draining: () => draining,
    });
  });

  it('answers when every API route refuses: no snapshot, no key, a wrong key, a key over its limit', async () => {
    const withKey = { authorization: `Bearer ${KEY}` };
    const before = await app!.inject({ method: 'GET', url: '/healthz' });
    // 503, so a load balancer keeps a process with nothing to serve out of its pool.
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({
      status: 'no-snapshot',
      snapshot: null,
      families: { programs: false },
      precompute: null,
      lake: null,
    });
    snapshot = await loadSnapshot(memoryReader('snap-a'), [programsModule().loader]);
    expect((await app!.inject({ method: 'GET', url: '/v1/programs', headers: withKey })).statusCode).toBe(
      200,
    );
    expect((await app!.inject({ method: 'GET', url: '/v1/programs', headers: withKey })).statusCode).toBe(
      429,
    );
    for (const headers of [{}, withKey, { authorization: 'Bearer wrong' }]) {
      const response = await app!.inject({ method: 'GET', url: '/healthz', headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: 'ok',
        snapshot: { id: 'snap-a', createdAt: '2026-11-21T12:00:00.000Z' },
        families: { programs: true },
        precompute: null,
        lake: null,
      });
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const spec = (await app!.inject({ method: 'GET', url: '/spec.json' })).json();
    expect(spec.paths['/healthz'].get.security).toEqual([]);
    expect(spec.paths['/healthz'].get.tags).toEqual(['service']);
    expect(spec.paths['/healthz'].get.responses['503'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Health',
    });
  });

  it('answers 503 "draining" once the process is asked to stop, while data routes still answer', async () => {
    snapshot = await loadSnapshot(memoryReader('snap-a'), [programsModule().loader]);
    expect((await app!.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    draining = true;
    const response = await app!.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'draining',
      snapshot: { id: 'snap-a', createdAt: '2026-11-21T12:00:00.000Z' },
      families: { programs: true },
      precompute: null,
      lake: null,
    });
    const data = await app!.inject({
      method: 'GET',
      url: '/v1/programs',
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(data.statusCode).toBe(200);
  });

  it('says which step a running precompute is at, with no percentage while its total is unknown', async () => {
    app = await buildApp({
      config: testConfig(),
      logger: silentLogger(),
      snapshots: { current: () => null },
      routeGroups: [programsModule()],
      keyStore: { authenticate: () => null },
      precompute: () => ({
        step: 'stage records',
        count: 54_238,
        total: undefined,
        unit: 'records',
        left: undefined,
      }),
    });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({
      precompute: { step: 'stage records', count: 54_238, total: null, unit: 'records', percent: null },
    });
  });
});
