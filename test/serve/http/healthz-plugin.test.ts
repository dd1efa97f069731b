import { afterEach, describe, expect, it } from 'vitest';
import type { ZodApp } from '../../../serve/api-module.ts';
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
  it('answers when every API route refuses: no snapshot, no key, a wrong key, a key over its limit', async () => {
    let snapshot: LoadedSnapshot | null = null;
    app = await buildApp({
      config: testConfig({ RATE_LIMIT_PER_MINUTE: '1' }),
      logger: silentLogger(),
      snapshots: { current: () => snapshot },
      apiModules: [programsModule()],
      keyStore: { authenticate: (given) => (given === KEY ? { id: 'test', name: 'test' } : null) },
    });
    const withKey = { authorization: `Bearer ${KEY}` };
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({
      status: 'no-snapshot',
      snapshot: null,
      families: { programs: false },
      precompute: null,
    });
    snapshot = await loadSnapshot(memoryReader('snap-a'), [programsModule().serving]);
    expect((await app.inject({ method: 'GET', url: '/v1/programs', headers: withKey })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v1/programs', headers: withKey })).statusCode).toBe(429);
    for (const headers of [{}, withKey, { authorization: 'Bearer wrong' }]) {
      const response = await app.inject({ method: 'GET', url: '/healthz', headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: 'ok',
        snapshot: { id: 'snap-a', createdAt: '2026-11-21T12:00:00.000Z' },
        families: { programs: true },
        precompute: null,
      });
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const spec = (await app.inject({ method: 'GET', url: '/spec.json' })).json();
    expect(spec.paths['/healthz'].get.security).toEqual([]);
    expect(spec.paths['/healthz'].get.tags).toEqual(['service']);
  });

  it('says which step a running precompute is at, with no percentage while its total is unknown', async () => {
    app = await buildApp({
      config: testConfig(),
      logger: silentLogger(),
      snapshots: { current: () => null },
      apiModules: [programsModule()],
      keyStore: { authenticate: () => null },
      precompute: () => ({
        step: 'stage records',
        count: 54_238,
        total: undefined,
        unit: 'records',
        leftMs: undefined,
      }),
    });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({
      precompute: { step: 'stage records', count: 54_238, total: null, unit: 'records', percent: null },
    });
  });
});
