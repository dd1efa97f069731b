import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer, ROOT } from '../processes.ts';
import { NetnsLab } from './netns-hosts.ts';

/*
 * The deployment of docs/deploying.md's "several machines" topology, each role on a host of its own (a network
 * namespace of this machine, test/support/deployment/netns-hosts.ts): three Kafka brokers, SeaweedFS as the S3
 * store, Redis, HAProxy with deploy/haproxy.cfg, three replicas (dist/start/main.js with deploy/env), two simulate
 * workers, a pipeline host and a client host. The client host runs the soak itself
 * (multi-host-soak-control.ts): it starts every role, sends the load and operates the deployment, since only a
 * host of the lab reaches the others. This process creates the lab, builds the server, runs the client host's
 * program and removes the lab, with whatever still runs in it, whatever happened. Shared by
 * `npm run bench -- multi-host` and test/deploy/multi-host-soak.test.ts.
 */

/** Every host of the lab, in address order (10.250.0.11, .12, …). */
export const HOSTS = [
  'kafka-1',
  'kafka-2',
  'kafka-3',
  'store',
  'redis',
  'lb',
  'replica-1',
  'replica-2',
  'replica-3',
  'worker-1',
  'worker-2',
  'pipeline',
  'client',
] as const;

export interface MultiHostSoakOptions {
  /** How long the load runs at least (longer when the operations take longer). */
  loadSeconds: number;
  /** Requests per second, sent at a steady pace whatever the answers take. */
  requestsPerSecond: number;
  log?: (line: string) => void;
}

/** What the cut replica's /healthz said while it was cut off the store and the brokers. */
export interface CutReplicaResult {
  /** Every /healthz status code it answered during the cut (each probe 100 ms apart). */
  healthzStatuses: number[];
  /** Its HAProxy state at each check during the cut. */
  haproxyStates: string[];
  /** From the cut to its /healthz saying `lake.reachable: false`. */
  unreachableAfterMs: number;
  /** The `lake.error` it gave. */
  error: string | null;
  /** From the restore to `lake.reachable: true` again. */
  reachableAgainAfterMs: number;
}

export interface MultiHostSoakResult {
  first: string;
  second: string;
  requests: number;
  /** Non-200 answers and connection errors (up to 20 described). */
  failed: number;
  failures: string[];
  bySnapshot: Record<string, number>;
  bodiesChecked: number;
  bodiesMismatched: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  slowest: string[];
  /** From CURRENT naming the second snapshot to the last replica's /healthz naming it. */
  publishToAllMs: number;
  /** From CURRENT naming the first again (the rollback) to the last replica's /healthz naming it. */
  rollbackToAllMs: number;
  /** How the killed worker ended (its signal), and the broker killed and how long until it answered again. */
  workerKilled: string | null;
  brokerKilled: number;
  brokerBackMs: number;
  cut: CutReplicaResult;
  /** Seconds of load, and what was done with the second it happened at. */
  seconds: number;
  events: string[];
}

/** The line the client host's program prints its result after. */
export const RESULT_MARKER = 'MULTI_HOST_SOAK_RESULT ';

/** Runs the soak in a new lab and returns what the client host measured; the lab is gone when it resolves. */
export async function runMultiHostSoak(options: MultiHostSoakOptions): Promise<MultiHostSoakResult> {
  const log = options.log ?? (() => {});
  await buildServer();
  // Every temporary folder of the soak's programs is under this one, removed even when they are killed.
  const dir = await mkdtemp(path.join(tmpdir(), 'multi-host-soak-'));
  const lab = NetnsLab.create(HOSTS);
  try {
    const control = lab.exec(
      'client',
      [
        process.execPath,
        '--import',
        'tsx',
        path.join(ROOT, 'test/support/deployment/multi-host-soak-control.ts'),
      ],
      {
        HOME: dir,
        TMPDIR: dir,
        ONNXRUNTIME_NODE_INSTALL: 'skip',
        ...(process.env.ENGINES_DIR === undefined ? {} : { ENGINES_DIR: process.env.ENGINES_DIR }),
        SOAK_LAB: JSON.stringify(lab.description),
        SOAK_OPTIONS: JSON.stringify({
          loadSeconds: options.loadSeconds,
          requestsPerSecond: options.requestsPerSecond,
        }),
      },
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    let partial = '';
    // What it said (its progress, and why it failed) apart from the JSON log lines it quotes of its programs.
    const said: string[] = [];
    control.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    control.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-6000);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        log(line);
        if (!line.startsWith('{')) said.push(line);
      }
    });
    const code = await new Promise<number | null>((resolve) => control.once('exit', resolve));
    const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
    if (code !== 0 || line === undefined)
      throw new Error(
        `the soak on the client host failed (${code}):\n${said.slice(-100).join('\n')}\n` +
          `its output ends:\n${stdout.slice(-3000)}\n${stderr}`,
      );
    return JSON.parse(line.slice(RESULT_MARKER.length)) as MultiHostSoakResult;
  } finally {
    lab.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}
