import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveCurrent } from '../../data-lake/current-pointer.ts';
import { openLake, snapshotKey, type Lake } from '../../data-lake/lake.ts';
import { lakeSnapshotSource } from '../../serve/snapshot/lake-snapshot-source.ts';
import { startService, type RunningService } from '../../serve/service.ts';
import { kafkaUnavailable, seaweedfsUnavailable } from '../support/engines/engines.ts';
import { startKafkaCluster } from '../support/engines/kafka-cluster.ts';
import { openKafkaEventLog } from '../../eventlog/open-event-log.ts';
import { announcePublished } from '../../data-lake/published-snapshots.ts';
import { startSeaweedfs, type SeaweedfsServer } from '../support/engines/seaweedfs.ts';
import { sampleValue } from '../support/prometheus-text.ts';
import { programsModule, silentLogger, testConfig } from '../support/serve-fixtures.ts';
import { writeProgramsSnapshot, writeTablesSnapshot, programsTable } from '../support/serve-lake-fixture.ts';
import { TcpRelay } from '../support/tcp-relay.ts';

// A replica on another host than the pipeline: they share only the lake in S3 (SeaweedFS), which the replica
// reaches through a relay this spec can cut, as a network partition would.
const KEY = 'replica-s3-key-0123456789';
const unavailable = seaweedfsUnavailable('the replica-on-S3 specs');

describe.skipIf(unavailable !== undefined)('a replica following a lake in S3', () => {
  let s3: SeaweedfsServer;
  let relay: TcpRelay;
  let root: string;
  let pipelineHost: Lake;
  let replica: RunningService;
  const lakeUrl = () => `s3://${s3.bucket}/prod`;

  beforeAll(async () => {
    s3 = await startSeaweedfs();
    relay = await TcpRelay.start({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${relay.port}`,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_REGION: 'us-east-1',
      // A cut store must fail a request within the poll, not after the SDK's retries.
      AWS_MAX_ATTEMPTS: '1',
    });
    root = await mkdtemp(path.join(tmpdir(), 'replica-s3-'));
    pipelineHost = openLake({ LAKE_DIR: path.join(root, 'pipeline-host'), LAKE_URL: lakeUrl() });
    await writeProgramsSnapshot(pipelineHost, 's1', 3, { publish: true });
    const config = testConfig({
      LAKE_DIR: path.join(root, 'replica-host'),
      LAKE_URL: lakeUrl(),
      PORT: '0',
      API_KEYS: KEY,
      SERVE_ROLE: 'replica',
      SNAPSHOT_POLL_MS: '200',
      METRICS_PORT: '0',
    });
    replica = await startService({
      config,
      logger: silentLogger(),
      routeGroups: [programsModule()],
      source: lakeSnapshotSource(openLake(config)),
      publishFirstSnapshot: () => Promise.reject(new Error('a replica never publishes')),
      print: () => {},
    });
  }, 120_000);
  afterAll(async () => {
    await replica?.stop();
    await relay?.stop();
    await s3?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const served = async () => {
    const res = await fetch(`${replica.url}/v1/programs`, { headers: { authorization: `Bearer ${KEY}` } });
    await res.arrayBuffer();
    return { status: res.status, snapshot: res.headers.get('x-snapshot-id') };
  };
  const health = async () =>
    (await (await fetch(`${replica.url}/healthz`)).json()) as {
      status: string;
      lake: { current: string | null; reachable: boolean; error: string | null };
    };
  const metric = async (name: string) => sampleValue(await (await fetch(replica.metricsUrl!)).text(), name);

  it('pulls the published snapshot into its own cache, every file checked, and serves it', async () => {
    expect(await served()).toEqual({ status: 200, snapshot: 's1' });
    expect(existsSync(path.join(root, 'replica-host/cache/lake/snapshots/s1/programs.parquet'))).toBe(true);
    expect((await health()).lake).toEqual({
      current: 's1',
      reachable: true,
      error: null,
      since: null,
      announcements: 'off',
      announced: null,
    });
  });

  it('swaps in a new publish without a restart', async () => {
    await writeProgramsSnapshot(pipelineHost, 's2', 4, { publish: true });
    await expect.poll(async () => (await served()).snapshot, { timeout: 10_000, interval: 50 }).toBe('s2');
  });

  it('never serves a snapshot whose file does not match its manifest, and says so', async () => {
    await writeProgramsSnapshot(pipelineHost, 's3', 5, { publish: false });
    // The object's bytes replaced after its manifest named their SHA-256: a corrupt or tampered upload.
    await pipelineHost.store.put(
      snapshotKey('s3', 'programs.parquet'),
      'PAR1 not the bytes the manifest names',
    );
    await moveCurrent(pipelineHost, 's3');
    await expect
      .poll(async () => (await health()).lake.error, { timeout: 10_000, interval: 50 })
      .toMatch(/^snapshot s3 in s3:\/\/\S+: programs\.parquet has SHA-256 [0-9a-f]{64}, its manifest says/);
    expect(await served()).toEqual({ status: 200, snapshot: 's2' });
    expect(await metric('electrify_snapshot_behind')).toBe(1);
  });

  it('never serves a held snapshot, even when CURRENT names it by mistake', async () => {
    await writeTablesSnapshot(pipelineHost, 's4', [programsTable('s4', 2)], {
      publish: false,
      hold: {
        against: 's2',
        findings: [
          { table: 'programs', check: 'table-drop', severity: 'hold', message: 'lost half its rows' },
        ],
      },
    });
    await moveCurrent(pipelineHost, 's4');
    await expect
      .poll(async () => (await health()).lake.error, { timeout: 10_000, interval: 50 })
      .toBe('snapshot s4 is held for review, not published: it is not served');
    expect(await served()).toEqual({ status: 200, snapshot: 's2' });
  });

  it('keeps serving its last good snapshot while the store is unreachable, says so, and recovers', async () => {
    await moveCurrent(pipelineHost, 's2');
    await expect.poll(async () => (await health()).lake.error, { timeout: 10_000, interval: 50 }).toBeNull();
    relay.cutOff();
    await expect
      .poll(async () => (await health()).lake.reachable, { timeout: 10_000, interval: 50 })
      .toBe(false);
    const cut = await health();
    expect(cut.status).toBe('ok');
    expect(cut.lake.error).toMatch(/^lake store s3:\/\/\S+: get CURRENT failed/);
    expect(await metric('electrify_lake_reachable')).toBe(0);
    expect(await served()).toEqual({ status: 200, snapshot: 's2' });

    relay.restore();
    await writeProgramsSnapshot(pipelineHost, 's5', 6, { publish: true });
    await expect.poll(async () => (await served()).snapshot, { timeout: 10_000, interval: 50 }).toBe('s5');
    expect((await health()).lake).toMatchObject({ current: 's5', reachable: true, error: null });
    expect(await metric('electrify_lake_reachable')).toBe(1);
  });
});

const health = async (service: RunningService) =>
  (await (await fetch(`${service.url}/healthz`)).json()) as {
    lake: { announcements: string; announced: string | null };
  };

const noKafka = kafkaUnavailable('the replica following publish announcements');

describe.skipIf(unavailable !== undefined || noKafka !== undefined)(
  'a replica told of publishes on Kafka',
  () => {
    it('serves a new snapshot within a second of its announcement, with a poll of a minute', async () => {
      const s3 = await startSeaweedfs();
      const kafka = await startKafkaCluster({ nodes: 1 });
      const root = await mkdtemp(path.join(tmpdir(), 'replica-announced-'));
      Object.assign(process.env, {
        AWS_ENDPOINT_URL_S3: s3.endpoint,
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        AWS_REGION: 'us-east-1',
      });
      const settings = {
        LAKE_URL: `s3://${s3.bucket}/prod`,
        KAFKA_BROKERS: kafka.bootstrap,
        KAFKA_TOPIC_PREFIX: 'announce.',
      };
      const pipelineHost = openLake({
        LAKE_DIR: path.join(root, 'pipeline-host'),
        LAKE_URL: settings.LAKE_URL,
      });
      let replica: RunningService | undefined;
      try {
        await writeProgramsSnapshot(pipelineHost, 'a1', 3, { publish: true });
        const config = testConfig({
          ...settings,
          LAKE_DIR: path.join(root, 'replica-host'),
          PORT: '0',
          API_KEYS: KEY,
          SERVE_ROLE: 'replica',
          SNAPSHOT_POLL_MS: '60000',
        });
        const logger = silentLogger();
        replica = await startService({
          config,
          logger,
          routeGroups: [programsModule()],
          source: lakeSnapshotSource(openLake(config), {
            announcements: () =>
              openKafkaEventLog({ ...config, KAFKA_BROKERS: config.KAFKA_BROKERS! }, logger),
          }),
          publishFirstSnapshot: () => Promise.reject(new Error('a replica never publishes')),
          print: () => {},
        });
        const servedId = async () =>
          (
            await fetch(`${replica!.url}/v1/programs`, { headers: { authorization: `Bearer ${KEY}` } })
          ).headers.get('x-snapshot-id');
        expect(await servedId()).toBe('a1');
        // Following: the group has joined once the topic's first announcement (none yet) could be heard.
        await expect
          .poll(
            async () =>
              ((await (await fetch(`${replica!.url}/healthz`)).json()) as { lake: { announcements: string } })
                .lake.announcements,
          )
          .toBe('following');
        const log = await openKafkaEventLog({ ...config, KAFKA_BROKERS: config.KAFKA_BROKERS! }, logger);
        try {
          // The first announcement reaches a group that has only just joined: give it the time a join takes.
          await writeProgramsSnapshot(pipelineHost, 'a2', 4, { publish: true });
          await announcePublished(log, { id: 'a2', previous: 'a1', by: 'pipeline' });
          await expect.poll(servedId, { timeout: 30_000, interval: 25 }).toBe('a2');

          await writeProgramsSnapshot(pipelineHost, 'a3', 5, { publish: true });
          const announced = performance.now();
          await announcePublished(log, { id: 'a3', previous: 'a2', by: 'pipeline' });
          // Heard within a second of the announcement, then loaded (downloaded, checked, read) and served.
          await expect
            .poll(async () => (await health(replica!)).lake.announced, { timeout: 10_000, interval: 10 })
            .toBe('a3');
          expect(performance.now() - announced).toBeLessThan(1000);
          await expect.poll(servedId, { timeout: 10_000, interval: 25 }).toBe('a3');
          expect(performance.now() - announced).toBeLessThan(5000);
        } finally {
          await log.close();
        }
      } finally {
        await replica?.stop();
        await kafka.stop();
        await s3.stop();
        await rm(root, { recursive: true, force: true });
      }
    }, 180_000);
  },
);
