import { Redis } from 'ioredis';
import type { Logger } from '../../lib/log.ts';
import { FixedWindowRateLimiter, type RateLimiter, type RateWindow } from './rate-limiter.ts';

/*
 * The rate limit of a deployment of replicas: every replica counts a key's requests in one Redis key, so
 * the limit holds for the deployment as a whole and each response's X-RateLimit-* headers give the
 * deployment's count. A window opens at a key's first request, like the in-process limiter's, and its end
 * is Redis's own expiry (PTTL), so replicas with drifting clocks still agree on when it resets.
 */

/** Counts one request and returns [count, milliseconds left in the window], in one round trip. */
const TAKE_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/**
 * Counts a request for a resource only the first time in the window (KEYS[2]: the window's set of counted
 * resources, expiring with it), and returns [count, milliseconds left], in one round trip.
 */
const TAKE_ONCE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  count = 0
  redis.call('DEL', KEYS[2])
end
if redis.call('SADD', KEYS[2], ARGV[2]) == 1 then
  count = redis.call('INCR', KEYS[1])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return {count, ttl}
`;

/**
 * How long a request waits for Redis before its process counts it alone: far above a healthy round trip
 * (well under a millisecond on a local network), short enough that an outage adds little latency.
 */
const REDIS_TIMEOUT_MS = 200;

export interface RedisRateLimiterOptions {
  url: string;
  limit: number;
  windowMs: number;
  logger: Logger;
  /** Prefix of the Redis keys, so deployments can share one Redis (default `electrify:ratelimit:`). */
  keyPrefix?: string;
}

type RedisWithTake = Redis & {
  takeRateWindow(key: string, windowMs: number): Promise<[number, number]>;
  takeRateWindowOnce(key: string, counted: string, windowMs: number, once: string): Promise<[number, number]>;
};

/**
 * A rate limiter shared by every process that points at the same Redis. Fail-open: while Redis cannot
 * answer, each process falls back to its own in-process count (the deployment then allows up to one limit
 * per replica), logs the outage once, and goes back to the shared count as soon as Redis answers again.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly limit: number;
  private readonly redis: RedisWithTake;
  private readonly fallback: FixedWindowRateLimiter;
  private readonly prefix: string;
  private outage = false;

  constructor(private readonly options: RedisRateLimiterOptions) {
    this.limit = options.limit;
    this.prefix = options.keyPrefix ?? 'electrify:ratelimit:';
    this.fallback = new FixedWindowRateLimiter(options.limit, options.windowMs);
    this.redis = new Redis(options.url, {
      // A request must never wait for a reconnection: with no connection, the command fails at once.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_TIMEOUT_MS,
      // Concurrent requests' counts go out in one write.
      enableAutoPipelining: true,
      retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    }) as RedisWithTake;
    this.redis.defineCommand('takeRateWindow', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis.defineCommand('takeRateWindowOnce', { numberOfKeys: 2, lua: TAKE_ONCE_SCRIPT });
    // Connection errors surface through the commands that fail; the event only needs a listener.
    this.redis.on('error', () => {});
  }

  /** Resolves once connected (or rejects after `timeoutMs`), so a server starts with the shared count. */
  async ready(timeoutMs = 5000): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        reject(new Error(`Redis at ${this.options.url} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.redis.once('ready', onReady);
    });
  }

  async take(client: string, nowMs: number, once?: string): Promise<RateWindow> {
    try {
      const key = this.prefix + client;
      const [count, ttl] =
        once === undefined
          ? await this.redis.takeRateWindow(key, this.options.windowMs)
          : await this.redis.takeRateWindowOnce(key, `${key}:once`, this.options.windowMs, once);
      if (this.outage) {
        this.outage = false;
        this.options.logger.info('rate limit: Redis answers again; counting across replicas');
      }
      return { count, resetsAt: nowMs + ttl };
    } catch (err) {
      if (!this.outage) {
        this.outage = true;
        this.options.logger.warn(
          { err },
          'rate limit: Redis unavailable; counting in this process alone until it answers',
        );
      }
      return this.fallback.take(client, nowMs, once);
    }
  }

  close(): void {
    this.redis.disconnect();
  }
}
