import { localLake } from '../../data-lake/lake.ts';
import type { ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { moveCurrent, readCurrent } from '../../data-lake/current-pointer.ts';
import { snapshotDir } from '../../data-lake/lake-paths.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';
import { runPipeline, stop } from '../support/processes.ts';
import {
  CONNECTIONS,
  DURATION_SECONDS,
  SLICES,
  incentivesLakeEnv,
  nationalSource,
  interleaved,
  memoryOf,
  startBaseline,
  startServer,
} from './server-processes.ts';
import { measureLoad, type LoadFigures } from './load.ts';

/*
 * The incentives API at national scale, measured as users run it: `npm run pipeline` into a fresh lake,
 * then the real server, compiled as `npm start` runs it (dist/start/main.js), in its own process, loaded by autocannon from this process. Each
 * endpoint is compared with a bare Fastify route serving a pre-built body of the same bytes, also in its
 * own process, so both sides get the same CPU split.
 */

const KEY = 'bench-incentives-key-0123456789';
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

/** How long the cached calculator is loaded, once with CURRENT left alone and once while it moves. */
const SWAP_LOAD_SECONDS = 12;
/** A swap of the national incentives took about 3 s under that load; one that never comes fails the bench. */
const SWAP_TIMEOUT_MS = 120_000;

/**
 * The cached calculator while the server swaps snapshots: a second snapshot of the same tables (a copy
 * under another id), and CURRENT moved from one to the other and back, each time once the server answers
 * from the last one, for as long as the load runs. A server loads a snapshot beside its answers (rows
 * handed over in messages of about 256 KB, tables indexed in slices of 5 ms of the event loop), so the
 * answers' tail should hardly move; with a national snapshot indexed in one go it waited 415 ms.
 */
async function loadDuringSwaps(
  lakeDir: string,
  base: string,
  calculator: Case,
  headers: Record<string, string>,
): Promise<BenchResult[]> {
  const first = (await readCurrent(localLake(lakeDir)))!;
  const copy = `${first}-copy`;
  await cp(snapshotDir(lakeDir, first), snapshotDir(lakeDir, copy), { recursive: true });
  const load = () =>
    measureLoad(`${base}${calculator.path}`, {
      headers,
      connections: CONNECTIONS,
      durationSeconds: SWAP_LOAD_SECONDS,
    });
  const served = async () =>
    ((await (await fetch(`${base}/healthz`)).json()) as { snapshot?: { id?: string } }).snapshot?.id;
  const steady = await load();
  let loading = true;
  let swaps = 0;
  const mover = (async () => {
    for (let next = copy; loading; next = next === copy ? first : copy) {
      await moveCurrent(localLake(lakeDir), next);
      const deadline = Date.now() + SWAP_TIMEOUT_MS;
      while ((await served()) !== next) {
        if (Date.now() > deadline)
          throw new Error(`the server did not swap to ${next} in ${SWAP_TIMEOUT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      swaps++;
    }
  })();
  const during = await load().finally(() => (loading = false));
  await mover;
  const name = `${calculator.name}, repeated (cached), during snapshot swaps`;
  const steadyNote = `CURRENT left alone just before: p99 ${steady.p99Ms} ms, slowest ${steady.maxMs} ms, ${Math.round(steady.requestsPerSecond)} req/s`;
  return [
    {
      name: `${name}: p99 latency`,
      value: during.p99Ms,
      unit: 'ms',
      note: `${swaps} swaps of the national snapshot in ${SWAP_LOAD_SECONDS} s; ${steadyNote}`,
    },
    {
      name: `${name}: slowest request`,
      value: during.maxMs,
      unit: 'ms',
      note: `${Math.round(during.requestsPerSecond)} req/s; no target (garbage collection of the old snapshot's tables falls in it)`,
    },
    {
      name: `${name}: failed requests`,
      value: during.failed,
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
      const lakeEnv = incentivesLakeEnv(lakeDir, source.location);
      const started = Date.now();
      await runPipeline(lakeEnv);
      const pipelineSeconds = (Date.now() - started) / 1000;
      results.push({
        name: 'pipeline run, empty lake to published snapshot',
        value: pipelineSeconds,
        unit: 's',
        target: { op: '<=', value: 60 },
        note: `${source.note ?? `source ${source.location}`}; npm run pipeline in a child process, tsx start-up included`,
      });

      const serverEnv = { ...lakeEnv, API_KEYS: KEY, AS_OF_DATE };
      const serving = (body: unknown) => (body as { status?: string }).status === 'ok';
      const cached = await startServer(serverEnv, serving);
      server = cached.child;
      const { base } = cached;
      const serverPid = server.pid!;
      const headers = { authorization: `Bearer ${KEY}` };

      const bodies: string[] = [];
      for (const c of CASES) {
        const res = await fetch(`${base}${c.path}`, { headers });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${c.path} answered ${res.status}: ${body.slice(0, 300)}`);
        bodies.push(body);
      }
      const loaded = await memoryOf(serverPid);
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
      const after = await memoryOf(serverPid);
      results.push(...(await loadDuringSwaps(lakeDir, base, CASES[0]!, headers)));
      await stop(cached.child);

      // The same varying incomes against a server with the response cache off (RESPONSE_CACHE_MB=0):
      // what computing an answer costs (query validation, eligibility, body assembly).
      const uncached = await startServer({ ...serverEnv, RESPONSE_CACHE_MB: '0' }, serving);
      server = uncached.child;
      const uncachedBase = uncached.base;
      await varyingLoad(uncachedBase)(1);
      await bare(1);
      const measured = await interleaved(varyingLoad(uncachedBase), bare);
      results.push(
        {
          name: `UNCACHED ${varying.name}, household_income varies per request: throughput`,
          value: Math.round(measured.a.requestsPerSecond),
          unit: 'req/s',
          note: `RESPONSE_CACHE_MB=0, every request computed; bare static route of the same size: ${Math.round(measured.b.requestsPerSecond)} req/s`,
        },
        {
          name: `UNCACHED ${varying.name}: throughput / bare static`,
          value: measured.a.requestsPerSecond / measured.b.requestsPerSecond,
          unit: 'ratio',
          target: { op: '>=', value: 0.5 },
          note: 'what computing an answer costs: query validation, eligibility, body assembly',
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
          target: { op: '<', value: 400 },
          note: 'the compiled server (dist/start/main.js) after start-up and one request per endpoint',
        },
        {
          name: 'serving process peak RSS over the cached load runs',
          value: Math.round(after.peakMb),
          unit: 'MB',
          target: { op: '<', value: 400 },
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
