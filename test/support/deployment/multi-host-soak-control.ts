import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openLake } from '../../../data-lake/lake.ts';
import { readCurrent } from '../../../data-lake/snapshot-reader.ts';
import { startKafkaCluster } from '../engines/kafka-cluster.ts';
import { startSeaweedfs } from '../engines/seaweedfs.ts';
import { exitOf, ROOT, spawnOn, waitFor } from '../processes.ts';
import { startWorker } from '../simulate-worker-process.ts';
import { HaproxyProcess } from './haproxy.ts';
import type { CutReplicaResult, MultiHostSoakOptions, MultiHostSoakResult } from './multi-host-soak.ts';
import { RESULT_MARKER } from './multi-host-soak.ts';
import { NetnsLab, type LabDescription } from './netns-hosts.ts';
import { RedisServer } from './redis-server.ts';
import { changedIncentivesSource, readEnvFile } from './replicas-soak.ts';
import { changedCap, FIRST_CAP, quantile, SECOND_CAP, soakRequest } from './soak-requests.ts';

/*
 * The multi-host soak's program on the lab's client host (started by multi-host-soak.ts, which removes the lab
 * after it): starts every role on its host, builds the first snapshot, sends the load through HAProxy at a
 * steady pace, operates the deployment under it, and prints what it measured as one JSON line after
 * RESULT_MARKER. Its progress goes to stderr.
 */

const AS_OF_DATE = '2025-06-01';
const TOPIC_PREFIX = 'electrify.';
const REPLICA_PORT = 3001;
const REPLICAS = ['replica-1', 'replica-2', 'replica-3'] as const;
const BROKERS = ['kafka-1', 'kafka-2', 'kafka-3'] as const;
/** The replica cut off the store and the brokers, and the broker killed and restarted. */
const CUT_REPLICA = 'replica-3';
const KILLED_BROKER = 1;
const KEY = 'multi-host-soak-key-0123456789';
/** Requests the client lets wait for an answer at once before it holds the next (the pace is then behind). */
const MAX_IN_FLIGHT = 64;
const PROBE_MS = 100;
/** Requests each replica answers before the load (two of each route at least: soak-requests.ts). */
const WARM_UP_REQUESTS = 20;
const CURRENT_POLL_MS = 50;
/** How long an operation may take before the soak gives up on the deployment. */
const OPERATION_TIMEOUT_MS = 90_000;

const options = JSON.parse(process.env.SOAK_OPTIONS!) as MultiHostSoakOptions;
const lab = NetnsLab.attach(JSON.parse(process.env.SOAK_LAB!) as LabDescription);
const say = (line: string) => process.stderr.write(`${line}\n`);

interface Probe {
  at: number;
  status: number;
  snapshot: string | null;
  reachable: boolean | null;
  error: string | null;
}

interface Recorded {
  ok: boolean;
  latencyMs: number;
  atMs: number;
  route: string;
}

const dir = await mkdtemp(path.join(tmpdir(), 'control-'));
const logFile = (name: string) => openSync(path.join(dir, `${name}.log`), 'a');
const tail = async (name: string) =>
  (await readFile(path.join(dir, `${name}.log`), 'utf8').catch(() => '')).slice(-2000);

const stops: (() => Promise<void>)[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

async function main(): Promise<MultiHostSoakResult> {
  say(`starting Kafka on ${BROKERS.join(', ')} and SeaweedFS on store`);
  const [cluster, s3] = await Promise.all([
    startKafkaCluster({ placements: BROKERS.map((host) => lab.placement(host)) }),
    startSeaweedfs({ placement: lab.placement('store') }),
  ]);
  stops.push(
    () => cluster.stop(),
    () => s3.stop(),
  );
  const redis = await RedisServer.start(6379, lab.placement('redis'));
  stops.push(() => redis.stop());
  const lakeUrl = `s3://${s3.bucket}/soak`;
  const aws = {
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_REGION: 'us-east-1',
  };
  const kafka = { KAFKA_BROKERS: cluster.bootstrap, KAFKA_TOPIC_PREFIX: TOPIC_PREFIX };
  const settings = {
    ...aws,
    ...kafka,
    LAKE_URL: lakeUrl,
    AS_OF_DATE,
    REM_STATES: 'RI',
    HEALTH_STATES: 'RI',
    REM_SAMPLES: '10',
    ONNXRUNTIME_NODE_INSTALL: 'skip',
  };

  // The simulate workers, on hosts of their own, then the first snapshot from the pipeline host.
  const workers = ['worker-1', 'worker-2'].map((host) =>
    startWorker(
      { ...settings, LAKE_DIR: path.join(dir, host), LOG_LEVEL: 'info' },
      children,
      lab.placement(host),
    ),
  );
  await Promise.all(workers.map((w) => w.logged(/joining the simulate group/)));
  const onPipelineHost = (entry: string, env: Record<string, string>, args: string[] = []) =>
    exitOf(
      spawnOn(
        lab.placement('pipeline'),
        process.execPath,
        ['--import', 'tsx', path.join(ROOT, entry), ...args],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            ...settings,
            LAKE_DIR: path.join(dir, 'pipeline-host'),
            SIMULATE_WORKERS: '1',
            LOG_LEVEL: 'warn',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      ),
    );
  say('building the first snapshot on the pipeline host (Kafka, the two workers, the lake in S3)');
  const firstRun = await onPipelineHost('pipeline/cli/pipeline.ts', {});
  if (firstRun.code !== 0)
    throw new Error(`the first pipeline run failed (${firstRun.code}):\n${firstRun.output}`);
  Object.assign(process.env, aws);
  const lake = openLake({ LAKE_DIR: path.join(dir, 'client-host'), LAKE_URL: lakeUrl });
  const first = (await readCurrent(lake))!;
  const changedSource = await changedIncentivesSource(dir);

  // The replicas, as deploy/env starts them, each its own LAKE_DIR (its cache) on its own host.
  const replicaEnv = {
    ...(await readEnvFile(path.join(ROOT, 'deploy/env/common.env'))),
    ...(await readEnvFile(path.join(ROOT, 'deploy/env/replica.env'))),
    ...settings,
    PORT: String(REPLICA_PORT),
    API_KEYS: KEY,
    RATE_LIMIT_REDIS_URL: redis.url,
    // Counted on every request, but out of reach: the soak counts failures, not 429s.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LOG_LEVEL: 'warn',
    HOME: dir,
  };
  const replicaUrl = (host: string) => `http://${lab.host(host).address}:${REPLICA_PORT}`;
  const replicas: ChildProcess[] = REPLICAS.map((host) => {
    const out = logFile(host);
    return lab.exec(
      host,
      [process.execPath, path.join(ROOT, 'dist/start/main.js')],
      { ...replicaEnv, HOST: lab.host(host).address, LAKE_DIR: path.join(dir, host) },
      { cwd: ROOT, stdio: ['ignore', out, out] },
    );
  });
  stops.push(async () => {
    for (const replica of replicas) await lab.kill(replica);
  });
  await Promise.all(
    REPLICAS.map((host, i) =>
      waitFor(`${replicaUrl(host)}/healthz`, () => true, replicas[i]!).catch(async (error: Error) => {
        throw new Error(`${host}: ${error.message}\n${await tail(host)}`);
      }),
    ),
  );
  const haproxy = await HaproxyProcess.start({
    port: 80,
    replicas: REPLICAS.map((host) => `${lab.host(host).address}:${REPLICA_PORT}`),
    socket: path.join(dir, 'haproxy.sock'),
    placement: lab.placement('lb'),
  });
  stops.push(() => haproxy.stop());
  const deadline = Date.now() + 30_000;
  while ([...(await haproxy.serverStates()).values()].filter((s) => s === 'UP').length < REPLICAS.length) {
    if (Date.now() > deadline)
      throw new Error(`replicas not UP in HAProxy: ${[...(await haproxy.serverStates())]}`);
    await delay(100);
  }
  say(`HAProxy ${haproxy.url} in front of ${REPLICAS.join(', ')}; first snapshot ${first}`);

  // What the client watches beside the load: CURRENT in the store, and each replica's /healthz.
  let watching = true;
  const currents: { at: number; id: string | null }[] = [];
  const watchCurrent = (async () => {
    while (watching) {
      const id = await readCurrent(lake).catch(() => undefined);
      if (id !== undefined && currents.at(-1)?.id !== id) currents.push({ at: Date.now(), id });
      await delay(CURRENT_POLL_MS);
    }
  })();
  const probes = new Map<string, Probe[]>(REPLICAS.map((host) => [host, []]));
  const probeLoops = REPLICAS.map(async (host) => {
    while (watching) {
      const sent = Date.now();
      try {
        const res = await fetch(`${replicaUrl(host)}/healthz`, { signal: AbortSignal.timeout(1000) });
        const body = (await res.json()) as {
          snapshot: { id: string } | null;
          lake?: { reachable: boolean; error: string | null };
        };
        probes.get(host)!.push({
          at: Date.now(),
          status: res.status,
          snapshot: body.snapshot?.id ?? null,
          reachable: body.lake?.reachable ?? null,
          error: body.lake?.error ?? null,
        });
      } catch (error) {
        probes.get(host)!.push({
          at: Date.now(),
          status: 0,
          snapshot: null,
          reachable: null,
          error: String(error),
        });
      }
      await delay(Math.max(0, sent + PROBE_MS - Date.now()));
    }
  });
  /** Waits until `found` is true, polling, for at most OPERATION_TIMEOUT_MS. */
  const until = async <T>(what: string, found: () => T | undefined): Promise<T> => {
    const giveUp = Date.now() + OPERATION_TIMEOUT_MS;
    for (;;) {
      const value = found();
      if (value !== undefined) return value;
      if (Date.now() > giveUp) {
        const last = REPLICAS.map((host) => `${host}: ${JSON.stringify(probes.get(host)!.at(-1))}`);
        throw new Error(
          `gave up waiting for ${what}; CURRENT ${JSON.stringify(currents.at(-1))}; ${last.join('; ')}`,
        );
      }
      await delay(20);
    }
  };
  /** From CURRENT naming `id` (after `since`) to every replica's /healthz naming it, in ms. */
  const everyReplicaOn = async (id: string, since: number) => {
    const moved = await until(`CURRENT to name ${id}`, () =>
      currents.find((c) => c.at >= since && c.id === id),
    );
    const onIt = await until(`every replica to serve ${id}`, () => {
      const times = REPLICAS.map(
        (host) => probes.get(host)!.find((p) => p.at >= moved.at && p.snapshot === id)?.at,
      );
      return times.every((t) => t !== undefined) ? Math.max(...times) : undefined;
    });
    return onIt - moved.at;
  };

  // A deployment that has served for a while: each replica has answered every route before the load starts
  // (its first answers compile queries and start its model threads).
  const headers = { authorization: `Bearer ${KEY}` };
  for (const host of REPLICAS)
    for (let n = 0; n < WARM_UP_REQUESTS; n++) {
      const res = await soakRequest(replicaUrl(host), headers, n);
      if (res.status !== 200)
        throw new Error(`${host} answered ${res.status} warming up: ${await res.text()}`);
      await res.arrayBuffer();
    }

  // The load: a request every 1/requestsPerSecond s through HAProxy, whatever the answers take.
  const capOf = new Map<string, number>([[first, FIRST_CAP]]);
  const records: Recorded[] = [];
  const failures: string[] = [];
  const served = new Map<string, number>();
  let failed = 0;
  let bodiesChecked = 0;
  let bodiesMismatched = 0;
  const calculatorBodies: { snapshot: string | null; cap: number | undefined }[] = [];
  const send = async (n: number) => {
    const sent = performance.now();
    const atMs = Date.now() - started;
    try {
      const res = await soakRequest(haproxy.url, headers, n);
      const text = await res.text();
      const ok = res.status === 200;
      const route = new URL(res.url).pathname;
      records.push({ ok, latencyMs: performance.now() - sent, atMs, route });
      if (!ok) {
        failed++;
        if (failures.length < 20)
          failures.push(`${(atMs / 1000).toFixed(1)} s: ${res.status} ${text.slice(0, 200)}`);
        return;
      }
      const snapshot = res.headers.get('x-snapshot-id');
      if (snapshot !== null) served.set(snapshot, (served.get(snapshot) ?? 0) + 1);
      if (route.endsWith('/calculator')) calculatorBodies.push({ snapshot, cap: changedCap(text) });
    } catch (error) {
      failed++;
      records.push({ ok: false, latencyMs: performance.now() - sent, atMs, route: '?' });
      if (failures.length < 20)
        failures.push(`${(atMs / 1000).toFixed(1)} s: ${String((error as Error).cause ?? error)}`);
    }
  };
  let loading = true;
  const inFlight = new Set<Promise<void>>();
  const started = Date.now();
  const load = (async () => {
    const interval = 1000 / options.requestsPerSecond;
    for (let n = 0; loading; n++) {
      const due = started + n * interval - Date.now();
      if (due > 0) await delay(due);
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      const request = send(n).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await Promise.all(inFlight);
  })();
  const events: string[] = [];
  const event = (what: string) => {
    const line = `${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`;
    events.push(line);
    say(line);
  };
  const at = async (fraction: number) => {
    const wait = started + fraction * options.loadSeconds * 1000 - Date.now();
    if (wait > 0) await delay(wait);
  };

  await at(0.08);
  event('publishing a second snapshot (the pipeline host, one incentive cap changed in its source)');
  const publishedSince = Date.now();
  const publishing = onPipelineHost('pipeline/cli/pipeline.ts', { INCENTIVES_SOURCE: changedSource });
  event('SIGKILL worker-1');
  workers[0]!.child.kill('SIGKILL');
  await workers[0]!.exited;
  const workerKilled = workers[0]!.child.signalCode;
  const secondRun = await publishing;
  if (secondRun.code !== 0)
    throw new Error(`the second pipeline run failed (${secondRun.code}):\n${secondRun.output}`);
  const second = currents.at(-1)?.id ?? (await readCurrent(lake))!;
  if (second === first) throw new Error('the changed source published no new snapshot');
  capOf.set(second, SECOND_CAP);
  const publishToAllMs = await everyReplicaOn(second, publishedSince);
  event(`every replica serves ${second}, ${publishToAllMs} ms after CURRENT named it`);

  await at(0.3);
  event(`SIGKILL broker ${KILLED_BROKER} (kafka-${KILLED_BROKER}), then restart it`);
  const brokerKilledAt = Date.now();
  await cluster.kill(KILLED_BROKER);
  await cluster.restart(KILLED_BROKER);
  const brokerBackMs = Date.now() - brokerKilledAt;
  event(`broker ${KILLED_BROKER} answers again`);

  await at(0.45);
  const cutHosts = ['store', ...BROKERS];
  event(`cutting ${CUT_REPLICA} off ${cutHosts.join(', ')}`);
  const cutAt = Date.now();
  lab.cutOff(CUT_REPLICA, cutHosts);
  const haproxyStates = new Set<string>();
  const cutProbes = () => probes.get(CUT_REPLICA)!.filter((p) => p.at >= cutAt);
  let unreachable: Probe | undefined;
  while (unreachable === undefined) {
    haproxyStates.add((await haproxy.serverStates()).get('r3') ?? 'missing');
    unreachable = cutProbes().find((p) => p.reachable === false);
    if (Date.now() - cutAt > OPERATION_TIMEOUT_MS)
      throw new Error(`${CUT_REPLICA} never said the lake is unreachable`);
    await delay(100);
  }
  event(`${CUT_REPLICA} says the lake is unreachable: ${unreachable.error}`);
  // Cut for a while longer: it goes on serving what it has.
  const holdUntil = Date.now() + 3_000;
  while (Date.now() < holdUntil) {
    haproxyStates.add((await haproxy.serverStates()).get('r3') ?? 'missing');
    await delay(250);
  }
  const restoredAt = Date.now();
  const duringCut = probes.get(CUT_REPLICA)!.filter((p) => p.at >= cutAt && p.at < restoredAt);
  lab.restore(CUT_REPLICA, cutHosts);
  event(`${CUT_REPLICA} restored`);
  const reachableAgain = await until(`${CUT_REPLICA} to reach the lake again`, () =>
    probes.get(CUT_REPLICA)!.find((p) => p.at >= restoredAt && p.reachable === true),
  );
  event(`${CUT_REPLICA} reaches the lake again`);
  const cut: CutReplicaResult = {
    healthzStatuses: [...new Set(duringCut.map((p) => p.status))].sort(),
    haproxyStates: [...haproxyStates].sort(),
    unreachableAfterMs: unreachable.at - cutAt,
    error: unreachable.error,
    reachableAgainAfterMs: reachableAgain.at - restoredAt,
  };

  await at(0.65);
  event(`rolling back to ${first} (npm run lake -- rollback, on the pipeline host)`);
  const rolledBackSince = Date.now();
  const rollback = await onPipelineHost('data-lake/cli/lake.ts', {}, ['rollback', first]);
  if (rollback.code !== 0) throw new Error(`rollback failed (${rollback.code}):\n${rollback.output}`);
  const rollbackToAllMs = await everyReplicaOn(first, rolledBackSince);
  event(`every replica serves ${first} again, ${rollbackToAllMs} ms after CURRENT named it`);

  await at(1);
  loading = false;
  await load;
  const seconds = (Date.now() - started) / 1000;
  watching = false;
  await Promise.all([watchCurrent, ...probeLoops]);

  for (const body of calculatorBodies) {
    bodiesChecked++;
    if (body.snapshot === null || body.cap !== capOf.get(body.snapshot)) bodiesMismatched++;
  }
  const latencies = records.map((r) => r.latencyMs).sort((a, b) => a - b);
  const slowest = records
    .toSorted((a, b) => b.latencyMs - a.latencyMs)
    .slice(0, 5)
    .map((r) => `${Math.round(r.latencyMs)} ms at ${(r.atMs / 1000).toFixed(1)} s (${r.route})`);
  return {
    first,
    second,
    requests: records.length,
    failed,
    failures,
    bySnapshot: Object.fromEntries(served),
    bodiesChecked,
    bodiesMismatched,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? 0,
    slowest,
    publishToAllMs,
    rollbackToAllMs,
    workerKilled,
    brokerKilled: KILLED_BROKER,
    brokerBackMs,
    cut,
    seconds,
    events,
  };
}

let code = 0;
try {
  const result = await main();
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`);
} catch (error) {
  say(`the soak failed: ${(error as Error).stack ?? String(error)}`);
  for (const host of REPLICAS) say(`${host} log ends:\n${await tail(host)}`);
  code = 1;
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const step of stops.reverse()) await step().catch(() => {});
  lab.destroy();
}
process.exit(code);
