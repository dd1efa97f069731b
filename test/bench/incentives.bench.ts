import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bench, BenchResult } from './bench.ts';
import { measureLoad, type LoadFigures } from './static-baseline.ts';

/*
 * The incentives API at national scale, measured as users run it: `npm run pipeline` into a fresh lake,
 * then the real server (serve/main.ts) in its own process, loaded by autocannon from this process. Each
 * endpoint is compared with a bare Fastify route serving a pre-built body of the same bytes, also in its
 * own process, so both sides get the same CPU split.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SAMPLE = path.join(ROOT, 'ingest/sample-data/incentives');
const KEY = 'bench-incentives-key-0123456789';
const CONNECTIONS = 50;
const DURATION_SECONDS = 8;
/** Each side's DURATION_SECONDS is split into this many alternating slices. */
const SLICES = 4;
/** The reference's own test date: most 2025 incentives are still live, so bodies have their full size. */
const AS_OF_DATE = '2025-01-25';

interface Case {
  name: string;
  path: string;
}

const CASES: Case[] = [
  {
    name: 'calculator, large state (MA 02116, Eversource)',
    path:
      '/api/v1/calculator?zip=02116&household_income=60000&household_size=3&tax_filing=single' +
      '&owner_status=homeowner&utility=ma-eversource',
  },
  {
    name: 'calculator, small state (RI 02903, Rhode Island Energy)',
    path:
      '/api/v1/calculator?zip=02903&household_income=60000&household_size=3&tax_filing=single' +
      '&owner_status=homeowner&utility=ri-rhode-island-energy',
  },
  { name: 'utilities (02116)', path: '/api/v1/utilities?zip=02116' },
  { name: 'programs (CO 80301, Xcel)', path: '/api/v1/incentives/programs?zip=80301&utility=co-xcel-energy' },
];

/** Where the national data is: INCENTIVES_SOURCE, else ../shared/ra-data beside the repository. */
function nationalSource(): { location: string; note?: string } {
  const configured = process.env.INCENTIVES_SOURCE;
  const location = configured ?? path.resolve(ROOT, '../shared/ra-data');
  if (configured || existsSync(path.join(location, 'data/ira_incentives.json'))) return { location };
  return {
    location: SAMPLE,
    note: `national data not found at ${location}: measured on the sample data instead`,
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs a TypeScript entry point with tsx in a child process (node itself, so the pid is the program's). */
function runTs(entry: string, env: Record<string, string>, stdio: 'ignore' | 'pipe' = 'pipe'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', ...env },
    stdio: ['ignore', stdio, stdio],
  });
}

async function exitOf(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Polls a URL until it answers 200 with a JSON body that `ready` accepts. */
async function waitFor(url: string, ready: (body: unknown) => boolean, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`process exited with ${child.exitCode} before ${url} answered`);
    try {
      const res = await fetch(url);
      if (res.ok && ready(await res.json())) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not become ready within 120 s`);
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
async function memoryOf(pid: number): Promise<{ rssMb: number; peakMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** A bare Fastify server in its own process answering /static/<i> with body i, pre-serialised. */
async function startBaseline(bodiesFile: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const script = `
    import Fastify from 'fastify';
    import { readFileSync } from 'node:fs';
    const bodies = JSON.parse(readFileSync(${JSON.stringify(bodiesFile)}, 'utf8'));
    const app = Fastify({ logger: false });
    bodies.forEach((body, i) => app.get('/static/' + i, (_req, reply) => {
      reply.type('application/json; charset=utf-8').send(body);
    }));
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
 * Measures two targets in alternating slices (A B A B …) rather than one long run each, so a burst of
 * load from other processes on a shared machine falls on both sides alike. Throughput is the mean over
 * the slices, p99 the median of the slices' p99s.
 */
async function interleaved(
  a: (seconds: number) => Promise<LoadFigures>,
  b: (seconds: number) => Promise<LoadFigures>,
): Promise<{ a: LoadFigures; b: LoadFigures }> {
  const runs: { a: LoadFigures[]; b: LoadFigures[] } = { a: [], b: [] };
  for (let slice = 0; slice < SLICES; slice++) {
    runs.a.push(await a(DURATION_SECONDS / SLICES));
    runs.b.push(await b(DURATION_SECONDS / SLICES));
  }
  const combine = (figures: LoadFigures[]): LoadFigures => {
    const p99s = figures.map((f) => f.p99Ms).sort((x, y) => x - y);
    return {
      requestsPerSecond: figures.reduce((sum, f) => sum + f.requestsPerSecond, 0) / figures.length,
      p99Ms: p99s[Math.floor(p99s.length / 2)]!,
      failed: figures.reduce((sum, f) => sum + f.failed, 0),
    };
  };
  return { a: combine(runs.a), b: combine(runs.b) };
}

function loadResults(name: string, route: LoadFigures, baseline: LoadFigures, bytes: number): BenchResult[] {
  return [
    {
      name: `${name}: throughput`,
      value: Math.round(route.requestsPerSecond),
      unit: 'req/s',
      note: `${bytes} B body; bare static route of the same size: ${Math.round(baseline.requestsPerSecond)} req/s`,
    },
    {
      name: `${name}: throughput / bare static`,
      value: route.requestsPerSecond / baseline.requestsPerSecond,
      unit: 'ratio',
      target: { op: '>=', value: 0.5 },
    },
    {
      name: `${name}: p99 latency`,
      value: route.p99Ms,
      unit: 'ms',
      target: { op: '<=', value: 15 },
      note: `bare static p99 ${baseline.p99Ms} ms`,
    },
    {
      name: `${name}: failed requests`,
      value: route.failed,
      unit: 'requests',
      target: { op: '<=', value: 0 },
    },
  ];
}

export const bench: Bench = {
  title: `Incentives API on the national data: pipeline time, then autocannon -c ${CONNECTIONS} for ${DURATION_SECONDS} s per endpoint (in ${SLICES} slices alternating with the bare route) against the real server`,
  async run() {
    const source = nationalSource();
    const lakeDir = await mkdtemp(path.join(tmpdir(), 'incentives-bench-'));
    const results: BenchResult[] = [];
    let server: ChildProcess | undefined;
    let baseline: { child: ChildProcess; url: string } | undefined;
    try {
      const lakeEnv = { LAKE_DIR: lakeDir, INCENTIVES_SOURCE: source.location, LOG_LEVEL: 'warn' };
      const started = Date.now();
      const pipeline = await exitOf(runTs('transform/cli/pipeline.ts', lakeEnv));
      const pipelineSeconds = (Date.now() - started) / 1000;
      if (pipeline.code !== 0) throw new Error(`pipeline failed (${pipeline.code}):\n${pipeline.output}`);
      results.push({
        name: 'pipeline run, empty lake to published snapshot',
        value: pipelineSeconds,
        unit: 's',
        target: { op: '<=', value: 60 },
        note: `${source.note ?? `source ${source.location}`}; npm run pipeline in a child process, tsx start-up included`,
      });

      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const serverEnv = {
        ...lakeEnv,
        HOST: '127.0.0.1',
        API_KEYS: KEY,
        RATE_LIMIT_PER_MINUTE: '1000000000',
        AS_OF_DATE,
      };
      server = runTs('serve/main.ts', { ...serverEnv, PORT: String(port) }, 'ignore');
      await waitFor(`${base}/healthz`, (body) => (body as { status?: string }).status === 'ok', server);
      const headers = { authorization: `Bearer ${KEY}` };

      const bodies: string[] = [];
      for (const c of CASES) {
        const res = await fetch(`${base}${c.path}`, { headers });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${c.path} answered ${res.status}: ${body.slice(0, 300)}`);
        bodies.push(body);
      }
      const loaded = await memoryOf(server.pid!);
      const bodiesFile = path.join(lakeDir, 'bench-bodies.json');
      await writeFile(bodiesFile, JSON.stringify(bodies));
      baseline = await startBaseline(bodiesFile);

      const bareUrl = baseline.url;
      for (const [i, c] of CASES.entries()) {
        const route = (seconds: number) =>
          measureLoad(`${base}${c.path}`, { headers, connections: CONNECTIONS, durationSeconds: seconds });
        // The same request headers on both sides, so both parse the same request bytes.
        const bare = (seconds: number) =>
          measureLoad(`${bareUrl}/static/${i}`, {
            headers,
            connections: CONNECTIONS,
            durationSeconds: seconds,
          });
        // One discarded second each, so the measured runs see warmed-up (JIT-compiled) code on both sides.
        await route(1);
        await bare(1);
        const measured = await interleaved(route, bare);
        results.push(
          ...loadResults(
            `${c.name}, repeated (cached)`,
            measured.a,
            measured.b,
            Buffer.byteLength(bodies[i]!),
          ),
        );
      }

      // The same calculator request with a different income each time (spread over 0–250,000 by a fixed
      // stride): each is answered from the kept answer of its income class, once that class has been seen.
      const varying = CASES[0]!;
      let income = 20_000;
      const nextPath = () => {
        income = (income + 7_919) % 250_000;
        return varying.path.replace('household_income=60000', `household_income=${income}`);
      };
      const varyingLoad = (target: string) => (seconds: number) =>
        measureLoad(`${target}${varying.path}`, {
          headers,
          connections: CONNECTIONS,
          durationSeconds: seconds,
          nextPath,
        });
      const bare = (seconds: number) =>
        measureLoad(`${bareUrl}/static/0`, { headers, connections: CONNECTIONS, durationSeconds: seconds });
      await varyingLoad(base)(1);
      await bare(1);
      const byClass = await interleaved(varyingLoad(base), bare);
      results.push(
        ...loadResults(
          `${varying.name}, household_income varies per request (kept per income class)`,
          byClass.a,
          byClass.b,
          Buffer.byteLength(bodies[0]!),
        ),
      );
      const after = await memoryOf(server.pid!);
      await stop(server);

      // The same varying incomes against a server with the response cache off (RESPONSE_CACHE_MB=0):
      // what computing an answer costs (query validation, eligibility, body assembly).
      const uncachedPort = await freePort();
      const uncachedBase = `http://127.0.0.1:${uncachedPort}`;
      server = runTs(
        'serve/main.ts',
        { ...serverEnv, PORT: String(uncachedPort), RESPONSE_CACHE_MB: '0' },
        'ignore',
      );
      await waitFor(
        `${uncachedBase}/healthz`,
        (body) => (body as { status?: string }).status === 'ok',
        server,
      );
      await varyingLoad(uncachedBase)(1);
      await bare(1);
      const measured = await interleaved(varyingLoad(uncachedBase), bare);
      results.push(
        {
          name: `UNCACHED ${varying.name}, household_income varies per request: throughput`,
          value: Math.round(measured.a.requestsPerSecond),
          unit: 'req/s',
          note: `RESPONSE_CACHE_MB=0, every request computed; bare static route of the same size: ${Math.round(measured.b.requestsPerSecond)} req/s (ratio ${(measured.a.requestsPerSecond / measured.b.requestsPerSecond).toFixed(2)}); no target, shown for the compute cost`,
        },
        {
          name: `UNCACHED ${varying.name}: p99 latency`,
          value: measured.a.p99Ms,
          unit: 'ms',
          note: `bare static p99 ${measured.b.p99Ms} ms; no target`,
        },
        {
          name: `UNCACHED ${varying.name}: failed requests`,
          value: measured.a.failed,
          unit: 'requests',
          target: { op: '<=', value: 0 },
        },
      );

      results.push(
        {
          name: 'serving process RSS with the snapshot loaded',
          value: Math.round(loaded.rssMb),
          unit: 'MB',
          target: { op: '<=', value: 400 },
          note: 'serve/main.ts after start-up and one request per endpoint',
        },
        {
          name: 'serving process peak RSS over the cached load runs',
          value: Math.round(after.peakMb),
          unit: 'MB',
          target: { op: '<=', value: 400 },
          note: 'the response cache is bounded by RESPONSE_CACHE_MB (32 MB by default)',
        },
      );
      return results;
    } finally {
      if (baseline) await stop(baseline.child);
      if (server) await stop(server);
      await rm(lakeDir, { recursive: true, force: true });
    }
  },
};
