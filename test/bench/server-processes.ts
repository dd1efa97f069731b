import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchResult } from '../figures/bench-result.ts';
import { ROOT, buildServer, freePort, stop, waitFor } from '../support/processes.ts';
import type { LoadFigures } from './load.ts';

/*
 * What the benches that run the real server share: the server and a bare Fastify baseline as child
 * processes (started with test/support/processes.ts), their memory and CPU, and load measured in slices
 * alternating with the baseline.
 */

const SAMPLE = path.join(ROOT, 'ingest/sample-data/incentives');
export const CONNECTIONS = 50;
export const DURATION_SECONDS = 8;
/** Each side's DURATION_SECONDS is split into this many alternating slices. */
export const SLICES = 4;

/** Where the national data is: INCENTIVES_SOURCE, else ../shared/ra-data beside the repository. */
export function nationalSource(): { location: string; note?: string } {
  const configured = process.env.INCENTIVES_SOURCE;
  const location = configured ?? path.resolve(ROOT, '../shared/ra-data');
  if (configured || existsSync(path.join(location, 'data/ira_incentives.json'))) return { location };
  return {
    location: SAMPLE,
    note: `national data not found at ${location}: measured on the sample data instead`,
  };
}

/**
 * The environment of a lake of the incentives at `source`, without the REM and health precompute (at
 * national size it takes far longer than a bench: test/bench/simulate.bench.ts measures it).
 */
export const incentivesLakeEnv = (lakeDir: string, source: string): Record<string, string> => ({
  LAKE_DIR: lakeDir,
  INCENTIVES_SOURCE: source,
  REM_STATES: 'none',
  HEALTH_STATES: 'none',
});

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
export async function memoryOf(pid: number): Promise<{ rssMb: number; peakMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** The machine's load averages (1, 5, 15 min) for a figure's note: other processes share its cores. */
export const loadNote = (): string =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;

/**
 * CPU seconds (user + system) a process, or one of its threads (`thread`, a task id), has used so far
 * (Linux /proc, in clock ticks of 1/100 s).
 */
export async function cpuSecondsOf(pid: number, thread?: number): Promise<number> {
  const stat = await readFile(
    thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`,
    'utf8',
  );
  // The fields after the command's closing parenthesis, from the state on: utime is the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * A load run that also adds up the server's CPU time and the requests answered, so a figure per request
 * can be reported beside latency: on a shared machine, latency measures the queue as much as the server.
 */
export function withServerCpu(
  pid: number,
  run: (seconds: number) => Promise<LoadFigures>,
): { run: (seconds: number) => Promise<LoadFigures>; microsecondsPerRequest: () => number } {
  let cpuSeconds = 0;
  let requests = 0;
  return {
    async run(seconds) {
      const before = await cpuSecondsOf(pid);
      const figures = await run(seconds);
      cpuSeconds += (await cpuSecondsOf(pid)) - before;
      requests += figures.requestsPerSecond * seconds;
      return figures;
    },
    microsecondsPerRequest: () => (cpuSeconds / requests) * 1e6,
  };
}

/**
 * A bare Fastify server in its own process answering /static/<i> with body i, encoded once: the best
 * any route can do with the same bytes (a string body would be encoded again for every request). It
 * answers a POST too, after reading and parsing its JSON body as every Fastify route must: the ceiling
 * of a POST route is a POST, not a GET that sends no body.
 */
export async function startBaseline(bodiesFile: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const script = `
    import Fastify from 'fastify';
    import { readFileSync } from 'node:fs';
    const texts = JSON.parse(readFileSync(${JSON.stringify(bodiesFile)}, 'utf8'));
    const app = Fastify({ logger: false });
    texts.forEach((text, i) => {
      const body = Buffer.from(text);
      const send = (_req, reply) => { reply.type('application/json; charset=utf-8').send(body); };
      app.get('/static/' + i, send);
      app.post('/static/' + i, send);
    });
    await app.listen({ port: ${port}, host: '127.0.0.1' });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/static/0`, () => true, child);
  return { child, url };
}

/**
 * Measures targets in alternating slices (A B C A B C …) rather than one long run each, so a burst of
 * load from other processes on a shared machine falls on all of them alike. Throughput and bytes per
 * response are the means over the slices, p99 the median of the slices' p99s, max the largest.
 */
export async function interleavedAll<K extends string>(
  targets: Record<K, (seconds: number) => Promise<LoadFigures>>,
): Promise<Record<K, LoadFigures>> {
  const names = Object.keys(targets) as K[];
  const runs = new Map<K, LoadFigures[]>(names.map((name) => [name, []]));
  for (let slice = 0; slice < SLICES; slice++) {
    for (const name of names) runs.get(name)!.push(await targets[name](DURATION_SECONDS / SLICES));
  }
  const mean = (figures: LoadFigures[], of: (f: LoadFigures) => number) =>
    figures.reduce((sum, f) => sum + of(f), 0) / figures.length;
  const combine = (figures: LoadFigures[]): LoadFigures => {
    const p99s = figures.map((f) => f.p99Ms).sort((x, y) => x - y);
    return {
      requestsPerSecond: mean(figures, (f) => f.requestsPerSecond),
      p99Ms: p99s[Math.floor(p99s.length / 2)]!,
      maxMs: Math.max(...figures.map((f) => f.maxMs)),
      bytesPerResponse: mean(figures, (f) => f.bytesPerResponse),
      failed: figures.reduce((sum, f) => sum + f.failed, 0),
    };
  };
  return Object.fromEntries(names.map((name) => [name, combine(runs.get(name)!)])) as Record<K, LoadFigures>;
}

/** Two targets measured in alternating slices (see `interleavedAll`). */
export const interleaved = (
  a: (seconds: number) => Promise<LoadFigures>,
  b: (seconds: number) => Promise<LoadFigures>,
): Promise<{ a: LoadFigures; b: LoadFigures }> => interleavedAll({ a, b });

/**
 * A server's first start over a national lake builds its REM slot file; with the 2 cores shared by
 * other workers' builds and tests, that has taken over 2 minutes.
 */
const SERVER_START_TIMEOUT_MS = 600_000;

/**
 * The real server, compiled as `npm start` runs it (dist/start/main.js), in its default configuration
 * (logging included) but for what `env` sets, on a free port over a lake, once `ready` accepts its
 * /healthz. Its stdout (the JSON logs) goes to `server-<port>.log` in LAKE_DIR. `root` is the checkout
 * whose server runs (this one unless an A/B run names another).
 */
export async function startServer(
  env: Record<string, string>,
  ready: (health: unknown) => boolean,
  root = ROOT,
): Promise<{ child: ChildProcess; base: string }> {
  await buildServer(root);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = openSync(path.join(env.LAKE_DIR ?? tmpdir(), `server-${port}.log`), 'a');
  const child = spawn(process.execPath, [path.join(root, 'dist/start/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      ONNXRUNTIME_NODE_INSTALL: 'skip',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '1000000000',
    },
    // Its logs go to a file, as a deployment's go somewhere: writing them is part of what is measured.
    stdio: ['ignore', logFile, 'ignore'],
  });
  closeSync(logFile);
  try {
    await waitFor(`${base}/healthz`, ready, child, SERVER_START_TIMEOUT_MS);
  } catch (err) {
    // The caller never gets the process: it must not outlive the bench.
    await stop(child);
    throw err;
  }
  return { child, base };
}

/** A run's failed requests, held to none. */
export const failedRequests = (name: string, figures: LoadFigures): BenchResult => ({
  name: `${name}: failed requests`,
  value: figures.failed,
  unit: 'requests',
  target: { op: '<=', value: 0 },
});

/** The serving process's memory once loaded and at its peak over the runs, both held to 400 MB. */
export function memoryResults(
  loaded: { rssMb: number },
  after: { peakMb: number },
  loadedName: string,
  note: string,
): BenchResult[] {
  return [
    { name: loadedName, value: Math.round(loaded.rssMb), unit: 'MB', target: { op: '<', value: 400 }, note },
    {
      name: 'serving process peak RSS over the load runs',
      value: Math.round(after.peakMb),
      unit: 'MB',
      target: { op: '<', value: 400 },
    },
  ];
}
