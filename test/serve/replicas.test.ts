import { localLake } from '../../data-lake/lake.ts';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { keyFilePath } from '../../serve/auth/key-file.ts';
import { runKeysCli } from '../../serve/auth/keys-cli.ts';
import { startService, type RunningService } from '../../serve/service.ts';
import { lakeSnapshotSource } from '../../serve/snapshot/lake-snapshot-source.ts';
import { RedisServer, redisUnavailable } from '../support/deployment/redis-server.ts';
import { programsModule, silentLogger, testConfig } from '../support/serve-fixtures.ts';
import { writeProgramsSnapshot } from '../support/serve-lake-fixture.ts';

// Two replicas of one deployment on one lake: what holds for the deployment as a whole, not per process.

const unavailable = redisUnavailable();

let lakeDir: string;
let redis: RedisServer | undefined;
let replicas: RunningService[] = [];
it.beforeEach(async ({ tempDir }) => {
  lakeDir = tempDir;
  await writeProgramsSnapshot(lakeDir, 'published', 3, { publish: true });
});
afterEach(async () => {
  for (const replica of replicas) await replica.stop();
  replicas = [];
  await redis?.stop();
  redis = undefined;
});

async function startReplicas(count: number, env: Record<string, string>): Promise<RunningService[]> {
  for (let i = 0; i < count; i++) {
    replicas.push(
      await startService({
        config: testConfig({ LAKE_DIR: lakeDir, PORT: '0', SERVE_ROLE: 'replica', ...env }),
        logger: silentLogger(),
        routeGroups: [programsModule()],
        source: lakeSnapshotSource(localLake(lakeDir)),
        publishFirstSnapshot: () => Promise.reject(new Error('a replica never publishes')),
        print: () => {},
      }),
    );
  }
  return replicas;
}

/** `npm run keys -- <args>` on the lake's key file; returns what it printed. */
async function keysCommand(...args: string[]): Promise<string[]> {
  const out: string[] = [];
  const code = await runKeysCli(args, keyFilePath(lakeDir), {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
  });
  expect(code, out.join('\n')).toBe(0);
  return out;
}

const statusWith = async (replica: RunningService, key: string) =>
  (await fetch(`${replica.url}/v1/programs`, { headers: { authorization: `Bearer ${key}` } })).status;

describe.skipIf(unavailable !== undefined)('replicas sharing one rate limit through Redis', () => {
  it('refuses exactly the request past the limit, whichever replica gets it, with headers counting for both', async () => {
    redis = await RedisServer.start();
    const key = 'partner-key-0123456789';
    const [a, b] = await startReplicas(2, {
      API_KEYS: key,
      RATE_LIMIT_PER_MINUTE: '5',
      RATE_LIMIT_REDIS_URL: redis.url,
    });
    const answers = [];
    for (const replica of [a!, b!, a!, b!, a!, b!]) {
      const res = await fetch(`${replica.url}/v1/programs`, { headers: { authorization: `Bearer ${key}` } });
      answers.push({
        status: res.status,
        limit: res.headers.get('x-ratelimit-limit'),
        remaining: res.headers.get('x-ratelimit-remaining'),
        retryAfter: res.headers.get('retry-after'),
      });
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers.map((a) => a.remaining)).toEqual(['4', '3', '2', '1', '0', '0']);
    expect(answers.every((a) => a.limit === '5')).toBe(true);
    expect(Number(answers[5]!.retryAfter)).toBeGreaterThan(50);
    expect(Number(answers[5]!.retryAfter)).toBeLessThanOrEqual(60);
  });
});

describe('replicas following the key file', () => {
  it('accept a key `npm run keys` creates, and refuse it once revoked, on every replica within the poll', async () => {
    // A first key exists, as the operator created it; replicas never create one.
    await keysCommand('create', '--name', 'operator');
    const servers = await startReplicas(2, { SNAPSHOT_POLL_MS: '50' });
    const [, key] = await keysCommand('create', '--name', 'partner-b');
    for (const replica of servers) {
      await expect.poll(() => statusWith(replica, key!), { timeout: 5000, interval: 25 }).toBe(200);
    }
    await keysCommand('revoke', 'partner-b');
    for (const replica of servers) {
      await expect.poll(() => statusWith(replica, key!), { timeout: 5000, interval: 25 }).toBe(401);
    }
  });
});
