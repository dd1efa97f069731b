import { afterEach, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../../serve/http/redis-rate-limiter.ts';
import { RedisServer, redisUnavailable } from '../../support/deployment/redis-server.ts';
import { silentLogger } from '../../support/serve-fixtures.ts';

const unavailable = redisUnavailable();

let redis: RedisServer | undefined;
const limiters: RedisRateLimiter[] = [];
afterEach(async () => {
  for (const limiter of limiters.splice(0)) limiter.close();
  await redis?.stop();
  redis = undefined;
});

async function limiterOn(url: string, limit: number, windowMs = 60_000): Promise<RedisRateLimiter> {
  const limiter = new RedisRateLimiter({ url, limit, windowMs, logger: silentLogger() });
  limiters.push(limiter);
  await limiter.ready();
  return limiter;
}

describe.skipIf(unavailable !== undefined)('the rate limiter shared through Redis', () => {
  it('counts a key across every process that shares the Redis, and each key apart', async () => {
    redis = await RedisServer.start();
    const [a, b] = [await limiterOn(redis.url, 3), await limiterOn(redis.url, 3)];
    const now = Date.now();
    const counts = [];
    for (const limiter of [a, b, a, b]) counts.push((await limiter.take('key_partner', now)).count);
    expect(counts).toEqual([1, 2, 3, 4]);
    expect((await b.take('key_other', now)).count).toBe(1);
  });

  it('counts the requests of one resource once a window, across processes, and others as usual', async () => {
    redis = await RedisServer.start();
    const [a, b] = [await limiterOn(redis.url, 3, 500), await limiterOn(redis.url, 3, 500)];
    const file = '/api/v1/lake/snapshots/s1/zips.parquet';
    const counts = [];
    for (const [limiter, once] of [
      [a, file],
      [b, file],
      [a, undefined],
      [b, file],
      [a, '/api/v1/lake/snapshots/s1/geographies.parquet'],
    ] as const)
      counts.push((await limiter.take('key_partner', 0, once)).count);
    expect(counts).toEqual([1, 1, 2, 2, 3]);
    // Once the window has expired, the file counts again, once.
    await expect.poll(async () => (await a.take('key_partner', 0, file)).count, { timeout: 5000 }).toBe(1);
    expect((await b.take('key_partner', 0, file)).count).toBe(1);
  });

  it("ends the window when Redis's expiry says, the same for every process", async () => {
    redis = await RedisServer.start();
    const [a, b] = [await limiterOn(redis.url, 5, 60_000), await limiterOn(redis.url, 5, 60_000)];
    const opened = await a.take('key_partner', 1_000_000);
    expect(opened.resetsAt - 1_000_000).toBeGreaterThan(59_000);
    expect(opened.resetsAt - 1_000_000).toBeLessThanOrEqual(60_000);
    // Another process asking with its own clock gets the same time left, from Redis.
    const later = await b.take('key_partner', 5_000_000);
    expect(later.count).toBe(2);
    expect(later.resetsAt - 5_000_000).toBeLessThanOrEqual(opened.resetsAt - 1_000_000);
    expect(later.resetsAt - 5_000_000).toBeGreaterThan(59_000);
  });

  it('starts a new window once the last one expired', async () => {
    redis = await RedisServer.start();
    const limiter = await limiterOn(redis.url, 2, 100);
    expect((await limiter.take('key_partner', 0)).count).toBe(1);
    expect((await limiter.take('key_partner', 0)).count).toBe(2);
    await expect.poll(async () => (await limiter.take('key_partner', 0)).count, { timeout: 5000 }).toBe(1);
  });

  it('fails open: with Redis gone each process counts alone, and the shared count resumes when Redis is back', async () => {
    redis = await RedisServer.start();
    const port = redis.port;
    const limiter = await limiterOn(redis.url, 2);
    expect((await limiter.take('key_partner', 0)).count).toBe(1);
    await redis.stop();
    // The in-process window: a count of its own, never an error for the request.
    expect((await limiter.take('key_partner', 0)).count).toBe(1);
    expect((await limiter.take('key_partner', 0)).count).toBe(2);
    expect((await limiter.take('key_partner', 0)).count).toBe(3);
    expect((await limiter.take('key_resumed', 0)).count).toBe(1);
    redis = await RedisServer.start(port);
    // The in-process count of key_resumed only grows; a count of 1 again is Redis's, answering once more.
    await expect.poll(async () => (await limiter.take('key_resumed', 0)).count, { timeout: 10_000 }).toBe(1);
    const other = await limiterOn(redis.url, 2);
    expect((await other.take('key_resumed', 0)).count).toBe(2);
  });
});
