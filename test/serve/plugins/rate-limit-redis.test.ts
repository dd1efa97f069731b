import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { RouteGroup, ZodApp } from '../../../serve/route-group.ts';
import { buildApp } from '../../../serve/app.ts';
import { loadSnapshot } from '../../../serve/snapshot/snapshot-holder.ts';
import { RedisServer, redisUnavailable } from '../../support/deployment/redis-server.ts';
import { memoryReader, silentLogger, testConfig } from '../../support/serve-fixtures.ts';

const unavailable = redisUnavailable();
const KEYS = ['partner-key-0123456789', 'other-key-0123456789'] as const;
const keyStore = {
  authenticate: (given: string) =>
    KEYS.includes(given as never) ? { id: given, name: given, reviewer: false } : null,
};

/** GET /v1/ping, and GET /v1/files/:name, whose requests for one URL count once a window (as a lake file's). */
const pingModule: RouteGroup<unknown> = {
  loader: { name: 'ping', tables: [], load: async () => ({}) },
  register(app) {
    app.get('/v1/ping', async () => ({ pong: true }));
    app.get('/v1/files/:name', { config: { rateLimitOncePerUrl: true } }, async () => ({ file: true }));
  },
};

let redis: RedisServer | undefined;
const clients: Redis[] = [];
const apps: ZodApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const client of clients.splice(0)) client.disconnect();
  await redis?.stop();
  redis = undefined;
});

/** A replica counting in the Redis at `url`; like the service's, its client never waits for a connection. */
async function replica(url: string, perMinute: number): Promise<ZodApp> {
  // A generous timeout: a loaded test machine may hold a first script load longer than the service would wait.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 2000 });
  client.on('error', () => {});
  clients.push(client);
  await new Promise((resolve) => client.once('ready', resolve));
  const snapshot = await loadSnapshot(memoryReader('snap-a', {}), [pingModule.loader]);
  const app = await buildApp({
    config: testConfig({ RATE_LIMIT_PER_MINUTE: String(perMinute) }),
    logger: silentLogger(),
    snapshots: { current: () => snapshot },
    routeGroups: [pingModule],
    keyStore,
    rateLimitRedis: client,
  });
  apps.push(app);
  return app;
}

const get = async (app: ZodApp, url: string, key: string = KEYS[0]) => {
  const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  return { status: response.statusCode, remaining: response.headers['x-ratelimit-remaining'] };
};

describe.skipIf(unavailable !== undefined)('the rate limit shared through Redis', () => {
  it('counts a key across every replica that shares the Redis, and each key apart', async () => {
    redis = await RedisServer.start();
    const [a, b] = [await replica(redis.url, 3), await replica(redis.url, 3)];
    const answers = [];
    for (const app of [a, b, a, b]) answers.push(await get(app, '/v1/ping'));
    expect(answers).toEqual([
      { status: 200, remaining: '2' },
      { status: 200, remaining: '1' },
      { status: 200, remaining: '0' },
      { status: 429, remaining: '0' },
    ]);
    expect(await get(b, '/v1/ping', KEYS[1])).toEqual({ status: 200, remaining: '2' });
  });

  it('counts the requests of one file URL once a window, across replicas, and others as usual', async () => {
    redis = await RedisServer.start();
    const [a, b] = [await replica(redis.url, 3), await replica(redis.url, 3)];
    const answers = [];
    for (const [app, url] of [
      [a, '/v1/files/zips'],
      [b, '/v1/files/zips'],
      [a, '/v1/ping'],
      [b, '/v1/files/zips'],
      [a, '/v1/files/geographies'],
    ] as const)
      answers.push((await get(app, url)).remaining);
    expect(answers).toEqual(['2', '2', '1', '1', '0']);
  });

  it('fails open: with Redis gone requests are answered uncounted, and the shared count resumes when it is back', async () => {
    redis = await RedisServer.start();
    const port = redis.port;
    const [a, b] = [await replica(redis.url, 2), await replica(redis.url, 2)];
    expect(await get(a, '/v1/ping')).toEqual({ status: 200, remaining: '1' });
    await redis.stop();
    const during = [];
    for (let i = 0; i < 4; i++) during.push((await get(a, '/v1/ping')).status);
    expect(during).toEqual([200, 200, 200, 200]);
    redis = await RedisServer.start(port);
    // Each replica counts again once its client has reconnected (until then it answers uncounted, remaining
    // 2): a first count of 1 is the new server's, and the other replica's next request sees it.
    await expect
      .poll(async () => (await get(a, '/v1/ping', KEYS[1])).remaining, { timeout: 10_000 })
      .toBe('1');
    await expect.poll(async () => (await get(b, '/v1/ping')).remaining, { timeout: 10_000 }).toBe('1');
    expect(await get(b, '/v1/ping', KEYS[1])).toEqual({ status: 200, remaining: '0' });
    expect(await get(a, '/v1/ping')).toEqual({ status: 200, remaining: '0' });
  });
});
