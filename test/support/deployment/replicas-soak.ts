import { localLake } from '../../../data-lake/lake.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { keyFilePath } from '../../../serve/auth/key-file.ts';
import { runKeysCli } from '../../../serve/auth/keys-cli.ts';
import { readCurrent } from '../../../data-lake/snapshot-reader.ts';
import { buildServer, exitOf, freePort, ROOT, runPipeline, runTs, waitFor } from '../processes.ts';
import { HaproxyProcess, replicaTimeoutsMs } from './haproxy.ts';
import { RedisServer } from './redis-server.ts';
import {
  CHANGED_INCENTIVE,
  changedCap,
  FIRST_CAP,
  quantile,
  SECOND_CAP,
  soakRequest,
} from './soak-requests.ts';

/*
 * The deployment of deploy/ on one machine, under load, while it is operated: HAProxy with the checked-in
 * haproxy.cfg in front of three replicas started with deploy/env/{common,replica}.env, one Redis for the
 * rate limit, one lake. During the load a second snapshot is published, one replica is killed with SIGKILL
 * and restarted, another gets SIGTERM and is restarted, the first snapshot is rolled back to, and a third
 * replica is stopped (SIGSTOP) for longer than any timeout HAProxy applies to a replica, then continued.
 * Every response is recorded, with its latency; beside the load, the lake's largest file is downloaded
 * again and again, read slowly enough that each download outlasts HAProxy's `timeout server`. Shared by
 * `npm run bench -- replicas` (60 s and more) and the spec in npm test.
 */

export const AS_OF_DATE = '2025-06-01';
/** One small state keeps the pipeline quick; REM and health answer for it. */
const PIPELINE_ENV = { REM_STATES: 'RI', HEALTH_STATES: 'RI', AS_OF_DATE, LOG_LEVEL: 'warn' };
const SAMPLE_INCENTIVES = path.join(ROOT, 'ingest/sample-data/incentives');
const REPLICAS = 3;

export interface SoakOptions {
  /** How long the load runs while the deployment is operated (at least as long as the operations take). */
  loadSeconds: number;
  /** Concurrent client connections. */
  connections: number;
  /** When set, then measures 1 replica against 3 in alternating slices of this many seconds (2 each). */
  throughputSliceSeconds?: number;
  log?: (line: string) => void;
}

interface Recorded {
  ok: boolean;
  latencyMs: number;
  snapshot: string | null;
  /** When the request was sent, in ms since the load started. */
  atMs: number;
  route: string;
}

/** The lake's largest file, downloaded beside the load; a download must not fail or be cut. */
export interface DownloadsResult {
  table: string;
  bytes: number;
  completed: number;
  failed: number;
  failures: string[];
  /** The longest download, in seconds (each is paced to outlast `timeout server`). */
  longestSeconds: number;
}

export interface SoakResult {
  first: string;
  second: string;
  requests: number;
  /** Non-200 answers and connection errors, as the client saw them (up to 20 described). */
  failed: number;
  failures: string[];
  /** Responses per X-Snapshot-Id. */
  bySnapshot: Record<string, number>;
  /** Calculator bodies checked against the snapshot their header names, and how many disagreed. */
  bodiesChecked: number;
  bodiesMismatched: number;
  p50Ms: number;
  p99Ms: number;
  /** The worst latency a client saw, and the slowest requests (latency, when, route). */
  maxMs: number;
  slowest: string[];
  downloads: DownloadsResult;
  /** A calculator answer's ETag from HAProxy, revalidated at each replica and through HAProxy: the statuses. */
  revalidations: { direct: number[]; throughHaproxy: number[] };
  seconds: number;
  /** What was done to the deployment, with the second of the load it happened at. */
  events: string[];
  throughput?: { oneReplica: number; threeReplicas: number };
}

/** KEY=value lines of a deploy/env file (comments and blank lines skipped). */
export async function readEnvFile(file: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/** A copy of the sample incentives where one incentive's cap differs: a genuine change of a source. */
export async function changedIncentivesSource(dir: string): Promise<string> {
  const copy = path.join(dir, 'incentives-changed');
  await cp(SAMPLE_INCENTIVES, copy, { recursive: true });
  const file = path.join(copy, 'data/RI/incentives.json');
  const incentives = JSON.parse(await readFile(file, 'utf8')) as {
    id: string;
    amount: { maximum?: number };
  }[];
  const changed = incentives.find((i) => i.id === CHANGED_INCENTIVE)!;
  if (changed.amount.maximum !== FIRST_CAP)
    throw new Error(`${CHANGED_INCENTIVE} no longer caps at ${FIRST_CAP}`);
  changed.amount.maximum = SECOND_CAP;
  await writeFile(file, JSON.stringify(incentives, null, 2));
  return copy;
}

class Replica {
  child: ChildProcess | undefined;
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    this.child = spawn(process.execPath, [path.join(ROOT, 'dist/start/main.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...this.env, PORT: String(this.port) },
      stdio: 'ignore',
    });
    await waitFor(`http://127.0.0.1:${this.port}/healthz`, () => true, this.child);
  }

  /** SIGSTOP or SIGCONT: the process hangs (its sockets still accept connections), or goes on. */
  hang(signal: 'SIGSTOP' | 'SIGCONT'): void {
    this.child!.kill(signal);
  }

  async signal(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const child = this.child!;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill(signal);
    await exited;
  }
}

/** The route of a request URL (what the slowest requests are reported by). */
const routeOf = (url: string) => new URL(url).pathname;

/**
 * Downloads the lake's largest file through HAProxy again and again while `running()`, each read slowly
 * enough to take `paceMs`, checking every byte against the SHA-256 its ETag names. `pause()` waits for the
 * download under way and holds the next until `resume()`.
 */
function downloadLoop(base: string, headers: Record<string, string>, paceMs: number, running: () => boolean) {
  let paused = false;
  let current: Promise<void> = Promise.resolve();
  const result: DownloadsResult = {
    table: '',
    bytes: 0,
    completed: 0,
    failed: 0,
    failures: [],
    longestSeconds: 0,
  };
  const once = async (url: string) => {
    const started = performance.now();
    const res = await fetch(`${base}${url}`, { headers });
    const length = Number(res.headers.get('content-length'));
    const tag = /\.([0-9a-f]{16})"$/.exec(res.headers.get('etag') ?? '')?.[1];
    const hash = createHash('sha256');
    let received = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      received += chunk.length;
      // Paced: the bytes so far take their share of paceMs.
      const due = started + (received / length) * paceMs - performance.now();
      if (due > 0) await delay(due);
    }
    const digest = hash.digest('hex').slice(0, 16);
    if (res.status !== 200 || received !== length || digest !== tag)
      throw new Error(`${res.status}, ${received} of ${length} bytes, sha256 ${digest} for tag ${tag}`);
    result.longestSeconds = Math.max(result.longestSeconds, (performance.now() - started) / 1000);
  };
  const loop = (async () => {
    const listing = (await (await fetch(`${base}/api/v1/lake`, { headers })).json()) as {
      tables: { name: string; bytes: number; url: string }[];
    };
    const largest = listing.tables.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    Object.assign(result, { table: largest.name, bytes: largest.bytes });
    while (running()) {
      if (paused) {
        await delay(50);
        continue;
      }
      current = once(largest.url).then(
        () => void result.completed++,
        (err: unknown) => {
          result.failed++;
          if (result.failures.length < 5) result.failures.push(String((err as Error).cause ?? err));
        },
      );
      await current;
    }
  })();
  return {
    result,
    done: loop,
    pause: async () => {
      paused = true;
      await current;
    },
    resume: () => void (paused = false),
  };
}

/**
 * Fetches one calculator answer through HAProxy, then asks each replica directly, and HAProxy ten times,
 * whether the tag it got is still current: a deployment whose replicas tag the same answer alike says 304
 * whichever replica is asked.
 */
async function revalidate(
  base: string,
  replicas: readonly string[],
  headers: Record<string, string>,
): Promise<SoakResult['revalidations']> {
  const url = '/api/v1/calculator?zip=02903&owner_status=homeowner&household_income=52000&household_size=3';
  const first = await fetch(`${base}${url}`, { headers });
  await first.arrayBuffer();
  const etag = first.headers.get('etag');
  if (first.status !== 200 || etag === null)
    throw new Error(`no tagged answer to revalidate (${first.status})`);
  const ask = async (server: string) => {
    const res = await fetch(`${server}${url}`, { headers: { ...headers, 'if-none-match': etag } });
    await res.arrayBuffer();
    return res.status;
  };
  const direct = [];
  for (const replica of replicas) direct.push(await ask(replica));
  const throughHaproxy = [];
  for (let i = 0; i < 10; i++) throughHaproxy.push(await ask(base));
  return { direct, throughHaproxy };
}

export async function runReplicasSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => {});
  const dir = await mkdtemp(path.join(tmpdir(), 'soak-'));
  const lakeDir = path.join(dir, 'lake');
  const cleanup: (() => Promise<void>)[] = [];
  // A runner that gives up on the soak (a spec timeout) exits without the finally below: no process outlives it.
  const killers: (() => void)[] = [];
  const killChildren = () => killers.forEach((kill) => kill());
  process.once('exit', killChildren);
  try {
    log('building the first snapshot from the sample data (the default pipeline)');
    await runPipeline({ LAKE_DIR: lakeDir, ...PIPELINE_ENV });
    const first = (await readCurrent(localLake(lakeDir)))!;
    const changedSource = await changedIncentivesSource(dir);
    // The operator's one-time key, as `npm run keys -- create` makes it: replicas create none.
    const printed: string[] = [];
    await runKeysCli(['create', '--name', 'soak'], keyFilePath(lakeDir), {
      out: (l) => printed.push(l),
      err: (l) => printed.push(l),
    });
    const key = printed[1]!;

    const redis = await RedisServer.start();
    cleanup.push(() => redis.stop());
    killers.push(() => redis.kill());
    await buildServer();
    const replicaEnv = {
      ...(await readEnvFile(path.join(ROOT, 'deploy/env/common.env'))),
      ...(await readEnvFile(path.join(ROOT, 'deploy/env/replica.env'))),
      LAKE_DIR: lakeDir,
      RATE_LIMIT_REDIS_URL: redis.url,
      // The shared limit is counted on every request, but set out of reach: the soak counts failures, not 429s.
      RATE_LIMIT_PER_MINUTE: '1000000000',
      AS_OF_DATE,
      LOG_LEVEL: 'warn',
      ONNXRUNTIME_NODE_INSTALL: 'skip',
    };
    const replicas: Replica[] = [];
    for (let i = 0; i < REPLICAS; i++) replicas.push(new Replica(await freePort(), replicaEnv));
    cleanup.push(async () => {
      for (const replica of replicas) await replica.signal('SIGKILL');
    });
    killers.push(() => replicas.forEach((replica) => replica.child?.kill('SIGKILL')));
    await Promise.all(replicas.map((r) => r.start()));
    const haproxy = await HaproxyProcess.start({
      port: await freePort(),
      replicas: replicas.map((r) => `127.0.0.1:${r.port}`),
      socket: path.join(dir, 'haproxy.sock'),
    });
    cleanup.push(() => haproxy.stop());
    killers.push(() => haproxy.kill());
    const upInPool = async (server: string) => {
      const deadline = Date.now() + 60_000;
      while ((await haproxy.serverStates()).get(server) !== 'UP') {
        if (Date.now() > deadline) throw new Error(`${server} did not come back UP in HAProxy's pool`);
        await delay(100);
      }
    };
    for (let i = 1; i <= REPLICAS; i++) await upInPool(`r${i}`);
    log(`HAProxy ${haproxy.url} in front of ${REPLICAS} replicas; first snapshot ${first}`);

    // The load: a new household income every calculator request; REM and health requests mixed in.
    const headers = { authorization: `Bearer ${key}` };
    const revalidations = await revalidate(
      haproxy.url,
      replicas.map((r) => `http://127.0.0.1:${r.port}`),
      headers,
    );
    let sequence = 0;
    const request = () => soakRequest(haproxy.url, headers, sequence++);
    const capOf = new Map<string, number>([[first, FIRST_CAP]]);
    const records: Recorded[] = [];
    const failures: string[] = [];
    let failed = 0;
    let bodiesChecked = 0;
    let bodiesMismatched = 0;
    const served = new Map<string, number>();
    let loading = true;
    const client = async (recorder: Recorded[]) => {
      while (loading) {
        const sent = performance.now();
        const atMs = Date.now() - started;
        try {
          const res = await request();
          const text = await res.text();
          const snapshot = res.headers.get('x-snapshot-id');
          const ok = res.status === 200;
          recorder.push({ ok, latencyMs: performance.now() - sent, snapshot, atMs, route: routeOf(res.url) });
          if (!ok) {
            failed++;
            if (failures.length < 20) failures.push(`${res.status} ${text.slice(0, 200)}`);
            continue;
          }
          if (snapshot !== null) served.set(snapshot, (served.get(snapshot) ?? 0) + 1);
          if (res.url.includes('/calculator')) {
            bodiesChecked++;
            if (snapshot === null || changedCap(text) !== capOf.get(snapshot)) bodiesMismatched++;
          }
        } catch (err) {
          failed++;
          recorder.push({ ok: false, latencyMs: performance.now() - sent, snapshot: null, atMs, route: '?' });
          if (failures.length < 20) failures.push(String((err as Error).cause ?? err));
        }
      }
    };

    const started = Date.now();
    const events: string[] = [];
    const event = (what: string) => {
      const line = `${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`;
      events.push(line);
      log(line);
    };
    const at = async (fraction: number) => {
      const wait = started + fraction * options.loadSeconds * 1000 - Date.now();
      if (wait > 0) await delay(wait);
    };
    const answeredFrom = async (id: string, more: number) => {
      const target = (served.get(id) ?? 0) + more;
      while ((served.get(id) ?? 0) < target) await delay(20);
    };
    const clients = Array.from({ length: options.connections }, () => client(records));
    const timeouts = await replicaTimeoutsMs();
    const downloads = downloadLoop(haproxy.url, headers, 1.5 * timeouts.server!, () => loading);

    await at(0.1);
    event('publishing a second snapshot (the pipeline, one incentive cap changed in its source)');
    await runPipeline({ LAKE_DIR: lakeDir, INCENTIVES_SOURCE: changedSource, ...PIPELINE_ENV });
    const second = (await readCurrent(localLake(lakeDir)))!;
    if (second === first) throw new Error('the changed source published no new snapshot');
    capOf.set(second, SECOND_CAP);
    await answeredFrom(second, 50);
    event(`second snapshot ${second} published and served`);

    await at(0.3);
    event('SIGKILL r1');
    await replicas[0]!.signal('SIGKILL');
    await replicas[0]!.start();
    await upInPool('r1');
    event('r1 restarted and back in the pool');

    await at(0.5);
    event('SIGTERM r2 (drains, then exits)');
    await replicas[1]!.signal('SIGTERM');
    event('r2 exited');
    await replicas[1]!.start();
    await upInPool('r2');
    event('r2 restarted and back in the pool');

    await at(0.7);
    event(`rolling back to ${first} (npm run lake -- rollback)`);
    const rollback = await exitOf(
      runTs('data-lake/cli/lake.ts', { LAKE_DIR: lakeDir, LOG_LEVEL: 'warn' }, 'pipe', ['rollback', first]),
    );
    if (rollback.code !== 0) throw new Error(`rollback failed (${rollback.code}):\n${rollback.output}`);
    await answeredFrom(first, 50);
    event('first snapshot served again');

    await at(0.85);
    const stopMs = Math.max(...Object.values(timeouts)) + 2_000;
    // A download under way from r3 would stop with it: one that hangs mid-file is cut after `timeout server`
    // and resumed by the client with a Range request. The downloads here are about long ones completing.
    await downloads.pause();
    event(`SIGSTOP r3 for ${stopMs / 1000} s, longer than any timeout HAProxy applies to a replica`);
    replicas[2]!.hang('SIGSTOP');
    await delay(stopMs);
    replicas[2]!.hang('SIGCONT');
    event('SIGCONT r3');
    await upInPool('r3');
    event('r3 back in the pool');
    downloads.resume();

    await at(1);
    loading = false;
    await Promise.all([...clients, downloads.done]);
    const seconds = (Date.now() - started) / 1000;
    const latencies = records.map((r) => r.latencyMs).sort((a, b) => a - b);
    const slowest = records
      .toSorted((a, b) => b.latencyMs - a.latencyMs)
      .slice(0, 5)
      .map((r) => `${Math.round(r.latencyMs)} ms at ${(r.atMs / 1000).toFixed(1)} s (${r.route})`);
    const soak = { failed, failures: [...failures], bySnapshot: Object.fromEntries(served) };

    let throughput: SoakResult['throughput'];
    if (options.throughputSliceSeconds !== undefined) {
      const slice = options.throughputSliceSeconds;
      const measure = async () => {
        const recorder: Recorded[] = [];
        loading = true;
        const running = Array.from({ length: options.connections }, () => client(recorder));
        await delay(slice * 1000);
        loading = false;
        await Promise.all(running);
        return recorder.filter((r) => r.ok).length / slice;
      };
      const one: number[] = [];
      const three: number[] = [];
      for (let round = 0; round < 2; round++) {
        await haproxy.setServer('r2', 'maint');
        await haproxy.setServer('r3', 'maint');
        one.push(await measure());
        await haproxy.setServer('r2', 'ready');
        await haproxy.setServer('r3', 'ready');
        await upInPool('r2');
        await upInPool('r3');
        three.push(await measure());
      }
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      throughput = { oneReplica: mean(one), threeReplicas: mean(three) };
    }

    return {
      first,
      second,
      requests: records.length,
      ...soak,
      bodiesChecked,
      bodiesMismatched,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      maxMs: latencies.at(-1) ?? 0,
      slowest,
      downloads: downloads.result,
      revalidations,
      seconds,
      events,
      throughput,
    };
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => {});
    process.off('exit', killChildren);
    await rm(dir, { recursive: true, force: true });
  }
}
