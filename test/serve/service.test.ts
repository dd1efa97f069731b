import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { keyAnnouncement } from '../../serve/auth/key-announcement.ts';
import { createHealthApi } from '../../serve/health/health-api.ts';
import type { PrecomputeProgress } from '../../serve/http/not-ready.ts';
import { createRemApi } from '../../serve/rem/rem-api.ts';
import { startService, type RunningService, type ServiceDeps } from '../../serve/service.ts';
import {
  MemorySnapshotSource,
  memoryReader,
  programsModule,
  silentLogger,
  testConfig,
} from '../support/serve-fixtures.ts';
import { specRemModel } from '../support/rem-model.ts';

let lakeDir: string;
let service: RunningService | undefined;
it.beforeEach(async ({ tempDir }) => {
  lakeDir = tempDir;
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
});

function start(source: MemorySnapshotSource, publishFirstSnapshot: () => Promise<void>, env = {}) {
  const printed: string[] = [];
  const running = startService({
    config: testConfig({ LAKE_DIR: lakeDir, PORT: '0', HOST: '127.0.0.1', ...env }),
    logger: silentLogger(),
    routeGroups: [programsModule()],
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

  describe('on a fresh lake: the incentives first, the REM and health precompute after', () => {
    const headers = { authorization: 'Bearer configured-key-0123456789' };
    const simulating: PrecomputeProgress = {
      step: 'simulate clusters',
      count: 3441,
      total: 13_764,
      unit: 'clusters',
      left: { lowMs: 89_500, highMs: 89_500 },
    };

    /** A service whose precompute waits for `finish` (then publishes `complete`) or `fail`. */
    function staged(precomputeOutcome: 'publish' | 'fail', quickStage?: () => Promise<void>) {
      const source = new MemorySnapshotSource();
      const events: string[] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const precompute: ServiceDeps['precompute'] = {
        run: async (servePublished) => {
          events.push('precompute started');
          if (quickStage) {
            source.publish(memoryReader('first-answers'));
            await servePublished();
            await quickStage();
          }
          await released;
          if (precomputeOutcome === 'fail') throw new Error('simulate stage stalled');
          source.publish(memoryReader('complete'));
          events.push('complete published');
        },
        progress: () => simulating,
      };
      const running = startService({
        config: testConfig({
          LAKE_DIR: lakeDir,
          PORT: '0',
          HOST: '127.0.0.1',
          API_KEYS: headers.authorization.slice(7),
        }),
        logger: silentLogger(),
        routeGroups: [programsModule(), createRemApi({ model: specRemModel() }), createHealthApi()],
        source,
        publishFirstSnapshot: async () => {
          source.publish(memoryReader('incentives-only'));
          events.push('incentives published');
        },
        precompute,
        print: () => undefined,
      });
      return { running, events, release };
    }

    const remAddress = (url: string, language = 'en') =>
      fetch(
        `${url}/api/v1/rem/address?address=${encodeURIComponent('1 Main St, Providence, RI 02903')}` +
          `&upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas&language=${language}`,
        { headers },
      );
    const healthImpacts = (url: string, language = 'en') =>
      fetch(`${url}/api/v2/etools/health-impacts`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          metrics: ['avoided_premature_mortality_incidence'],
          upgrade: ['combination__all_electric__hvac_seer24_hspf13__weatherization'],
          state_fips: ['44'],
          language,
        }),
      });
    const healthz = async (url: string) => (await fetch(`${url}/healthz`)).json();

    it('serves the first snapshot at once; REM and health answer 503 saying how far the precompute is', async () => {
      const { running, events, release } = staged('publish');
      service = await running;
      expect(events).toEqual(['incentives published', 'precompute started']);
      const first = await fetch(`${service.url}/v1/programs`, { headers });
      expect([first.status, first.headers.get('x-snapshot-id')]).toEqual([200, 'incentives-only']);

      const rem = await remAddress(service.url);
      expect([rem.status, rem.headers.get('retry-after')]).toEqual([503, '90']);
      expect(await rem.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message:
          'REM estimates are being precomputed (now simulate clusters: 3,441 of 13,764 clusters, 25%; about 2 min ' +
          'left in all); retry later',
      });
      const health = await healthImpacts(service.url, 'es');
      expect([health.status, health.headers.get('retry-after')]).toEqual([503, '90']);
      expect(((await health.json()) as { message: string }).message).toBe(
        'Los impactos en la salud se están precalculando (ahora simulate clusters: 3.441 de 13.764 clusters, ' +
          '25 %; quedan unos 2 min en total); vuelva a intentarlo más tarde',
      );
      expect(await healthz(service.url)).toEqual({
        status: 'ok',
        snapshot: { id: 'incentives-only', createdAt: '2026-11-21T12:00:00.000Z' },
        families: { programs: true, rem: false, 'health-impacts': false },
        precompute: {
          step: 'simulate clusters',
          count: 3441,
          total: 13_764,
          unit: 'clusters',
          percent: 25,
          secondsLeft: 90,
          secondsLeftAtMost: 90,
        },
        lake: {
          current: 'incentives-only',
          reachable: true,
          error: null,
          since: null,
          announcements: 'off',
          announced: null,
        },
      });

      release();
      await service.precomputed;
      expect(events).toEqual(['incentives published', 'precompute started', 'complete published']);
      const after = await fetch(`${service.url}/v1/programs`, { headers });
      expect(after.headers.get('x-snapshot-id')).toBe('complete');
      expect(await healthz(service.url)).toMatchObject({ snapshot: { id: 'complete' }, precompute: null });
      // Still no REM tables in this snapshot, and no precompute running: the plain "not yet" answer.
      const rem2 = await remAddress(service.url);
      expect([rem2.status, rem2.headers.get('retry-after')]).toEqual([503, '60']);
    });

    it('serves what a stage of the precompute publishes at once, before the precompute is over', async () => {
      let servedMidway: string | null | undefined;
      const { running, events, release } = staged('publish', async () => {
        servedMidway = (await fetch(`${service!.url}/v1/programs`, { headers })).headers.get('x-snapshot-id');
        events.push('first answers served');
      });
      service = await running;
      await expect.poll(() => events.includes('first answers served')).toBe(true);
      expect(servedMidway).toBe('first-answers');
      release();
      await service.precomputed;
      const after = await fetch(`${service.url}/v1/programs`, { headers });
      expect(after.headers.get('x-snapshot-id')).toBe('complete');
    });

    it('keeps serving the first snapshot when the precompute fails', async () => {
      const { running, release } = staged('fail');
      service = await running;
      release();
      await service.precomputed;
      const res = await fetch(`${service.url}/v1/programs`, { headers });
      expect([res.status, res.headers.get('x-snapshot-id')]).toEqual([200, 'incentives-only']);
      expect(await healthz(service.url)).toMatchObject({
        families: { programs: true, rem: false, 'health-impacts': false },
        precompute: null,
      });
    });
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
    expect(await before.json()).toMatchObject({ status: 'no-snapshot', snapshot: null });

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
