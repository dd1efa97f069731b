import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../serve/app.ts';
import type { ZodApp } from '../../../serve/route-group.ts';
import { authPlugin } from '../../../serve/plugins/auth.ts';
import { snapshotScopePlugin } from '../../../serve/plugins/snapshot-scope.ts';
import { loadSnapshot, type LoadedSnapshot } from '../../../serve/snapshot/snapshot-holder.ts';
import { memoryReader, programsModule, silentLogger, testConfig } from '../../support/serve-fixtures.ts';

const KEY = 'data-scope-test-key-0123456789';
const keyStore = {
  authenticate: (given: string) => (given === KEY ? { id: 'test', name: 'test', reviewer: false } : null),
};
const withKey = { authorization: `Bearer ${KEY}` };

let app: ZodApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(current: () => LoadedSnapshot | null) {
  app = await buildApp({
    config: testConfig({ API_KEYS: KEY }),
    logger: silentLogger(),
    snapshots: { current },
    routeGroups: [programsModule()],
    keyStore,
  });
  return app;
}

describe('the snapshot-scope plugin', () => {
  it('refuses to be registered in a scope without the auth plugin before it', async () => {
    const server = Fastify();
    server.setValidatorCompiler(validatorCompiler);
    server.setSerializerCompiler(serializerCompiler);
    await expect(
      server.register(snapshotScopePlugin, { snapshots: { current: () => null }, today: () => '2026-11-21' }),
    ).rejects.toThrow(/electrify-auth/);
    await server.close();

    const inOrder = Fastify();
    inOrder.setValidatorCompiler(validatorCompiler);
    inOrder.setSerializerCompiler(serializerCompiler);
    await inOrder.register(async (scope) => {
      await scope.register(authPlugin, { keyStore, perMinute: 10 });
      await scope.register(snapshotScopePlugin, {
        snapshots: { current: () => null },
        today: () => '2026-11-21',
      });
    });
    await expect(inOrder.ready()).resolves.toBeDefined();
    await inOrder.close();
  });

  it('pins and tags the API scope only: the health check answers without a snapshot, untagged', async () => {
    let snapshot: LoadedSnapshot | null = null;
    const server = await start(() => snapshot);
    const data = await server.inject({ method: 'GET', url: '/v1/programs', headers: withKey });
    expect(data.statusCode).toBe(503);
    const healthz = await server.inject({ method: 'GET', url: '/healthz' });
    expect(healthz.statusCode).toBe(503);
    expect(healthz.json().status).toBe('no-snapshot');

    snapshot = await loadSnapshot(memoryReader('snap-a'), [programsModule().loader]);
    const tagged = await server.inject({ method: 'GET', url: '/v1/programs', headers: withKey });
    expect(tagged.headers['x-snapshot-id']).toBe('snap-a');
    expect(tagged.headers.etag).toBeDefined();
    for (const url of ['/healthz', '/spec.json', '/docs']) {
      const response = await server.inject({ method: 'GET', url });
      expect(response.headers['x-snapshot-id'], url).toBeUndefined();
      expect(response.headers.etag, url).toBeUndefined();
    }
  });

  it('documents its 503 on the API routes only', async () => {
    const server = await start(() => null);
    const spec = (await server.inject({ method: 'GET', url: '/spec.json' })).json();
    expect(spec.paths['/v1/programs'].get.responses['503'].description).toMatch(/No data snapshot/);
    // The health check's own 503 is its Health body, not the data scope's error.
    expect(spec.paths['/healthz'].get.responses['503'].description).not.toMatch(/No data snapshot/);
  });
});
