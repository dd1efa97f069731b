import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyAnnouncement } from '../../serve/auth/key-announcement.ts';
import { startService, type RunningService } from '../../serve/service.ts';
import {
  MemorySnapshotSource,
  memoryReader,
  programsModule,
  silentLogger,
  testConfig,
} from '../support/serve-fixtures.ts';

let lakeDir: string;
let service: RunningService | undefined;
beforeEach(async () => {
  lakeDir = await mkdtemp(path.join(tmpdir(), 'serve-service-'));
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
  await rm(lakeDir, { recursive: true, force: true });
});

function start(source: MemorySnapshotSource, publishFirstSnapshot: () => Promise<void>, env = {}) {
  const printed: string[] = [];
  const running = startService({
    config: testConfig({ LAKE_DIR: lakeDir, PORT: '0', HOST: '127.0.0.1', ...env }),
    logger: silentLogger(),
    apiModules: [programsModule()],
    source,
    publishFirstSnapshot,
    print: (line) => printed.push(line),
  });
  return { running, printed };
}

describe('startService', () => {
  it('on a first start publishes a snapshot, creates a key, prints it once and serves with it', async () => {
    const source = new MemorySnapshotSource();
    let runs = 0;
    const { running, printed } = start(source, async () => {
      runs++;
      source.publish(memoryReader('first'));
    });
    service = await running;
    expect(runs).toBe(1);
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(printed).toHaveLength(1);
    const [, id, key] = /\(id (key_[0-9a-f]{12})\)[^]*API key: (esk_\S+)\n/.exec(printed[0]!)!;
    expect(printed[0]).toBe(keyAnnouncement(id!, key!));
    expect(await readFile(path.join(lakeDir, 'keys.json'), 'utf8')).not.toContain(key);

    const res = await fetch(`${service.url}/v1/programs`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-snapshot-id')).toBe('first');

    // A second start finds the snapshot and the stored key: no pipeline run, nothing printed.
    await service.stop();
    const again = start(source, async () => {
      runs++;
    });
    service = await again.running;
    expect(runs).toBe(1);
    expect(again.printed).toEqual([]);
  });

  it('creates no key when API_KEYS is set', async () => {
    const source = new MemorySnapshotSource();
    source.publish(memoryReader('s1'));
    const { running, printed } = start(source, async () => {}, { API_KEYS: 'configured-key-0123456789' });
    service = await running;
    expect(printed).toEqual([]);
    const res = await fetch(`${service.url}/v1/programs`, {
      headers: { authorization: 'Bearer configured-key-0123456789' },
    });
    expect(res.status).toBe(200);
  });

  it('still starts when the first pipeline run fails, answering 503 until a snapshot appears', async () => {
    const source = new MemorySnapshotSource();
    const { running } = start(
      source,
      async () => {
        throw new Error('sources unreachable');
      },
      { API_KEYS: 'configured-key-0123456789', SNAPSHOT_POLL_MS: '50' },
    );
    service = await running;
    const headers = { authorization: 'Bearer configured-key-0123456789' };
    expect((await fetch(`${service.url}/v1/programs`, { headers })).status).toBe(503);
    source.publish(memoryReader('later'));
    await expect
      .poll(async () => (await fetch(`${service!.url}/v1/programs`, { headers })).status, { timeout: 5000 })
      .toBe(200);
  });

  it('as a replica writes nothing: no pipeline run, no key file; /healthz is 503 until a snapshot is published', async () => {
    const source = new MemorySnapshotSource();
    let runs = 0;
    const { running, printed } = start(
      source,
      async () => {
        runs++;
      },
      { SERVE_ROLE: 'replica', API_KEYS: 'configured-key-0123456789', SNAPSHOT_POLL_MS: '50' },
    );
    service = await running;
    expect(runs).toBe(0);
    expect(printed).toEqual([]);
    await expect(access(path.join(lakeDir, 'keys.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    const before = await fetch(`${service.url}/healthz`);
    expect(before.status).toBe(503);
    expect(await before.json()).toEqual({ status: 'no-snapshot', snapshot: null });

    source.publish(memoryReader('published-later'));
    await expect
      .poll(async () => (await fetch(`${service!.url}/healthz`)).status, { timeout: 5000 })
      .toBe(200);
  });

  it('as a replica with no key configured creates none: every request is refused until `npm run keys` adds one', async () => {
    const source = new MemorySnapshotSource();
    source.publish(memoryReader('s1'));
    const { running, printed } = start(source, async () => {}, { SERVE_ROLE: 'replica' });
    service = await running;
    expect(printed).toEqual([]);
    await expect(access(path.join(lakeDir, 'keys.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const res = await fetch(`${service.url}/v1/programs`, {
      headers: { authorization: 'Bearer esk_unknown' },
    });
    expect(res.status).toBe(401);
  });

  it('drains: /healthz answers 503 "draining" while requests are still answered, then stops', async () => {
    const source = new MemorySnapshotSource();
    source.publish(memoryReader('s1'));
    const { running } = start(source, async () => {}, { API_KEYS: 'configured-key-0123456789' });
    service = await running;
    service.drain();
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { status: string }).status).toBe('draining');
    const headers = { authorization: 'Bearer configured-key-0123456789' };
    expect((await fetch(`${service.url}/v1/programs`, { headers })).status).toBe(200);
    const url = service.url;
    await service.stop();
    service = undefined;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
