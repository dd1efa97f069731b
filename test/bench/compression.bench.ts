import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';
import { SNAPSHOT, publishWithHealth } from './health.bench.ts';
import { freePort, runPipeline, stop, waitFor } from '../support/processes.ts';
import {
  CONNECTIONS,
  DURATION_SECONDS,
  SLICES,
  failedRequests,
  incentivesLakeEnv,
  interleavedAll,
  loadNote,
  nationalSource,
  startServer,
} from './server-processes.ts';
import { measureLoad, type LoadFigures, type LoadOptions } from './static-baseline.ts';

/*
 * Compressed answers on the wire: the same requests with and without Accept-Encoding, compressed by the
 * server (brotli or gzip, kept compressed in its response cache) or by HAProxy in front of it (gzip per
 * response: Debian's build has no brotli, and HAProxy keeps nothing). The real server, compiled as
 * `npm start` runs it, in its default configuration and then with the response cache off, so each answer
 * is compressed on every request.
 */

const KEY = 'bench-compression-key-0123456789';
const AS_OF_DATE = '2025-01-25';
const HAPROXY = '/usr/sbin/haproxy';

interface Case {
  name: string;
  path: string;
  method: 'GET' | 'POST';
  body?: string;
}

const CASES: Case[] = [
  {
    name: 'calculator MA 02116',
    method: 'GET',
    path:
      '/api/v1/calculator?zip=02116&household_income=60000&household_size=3&tax_filing=single' +
      '&owner_status=homeowner&utility=ma-eversource',
  },
  {
    name: 'health impacts, all counties of Texas',
    method: 'POST',
    path: '/api/v2/etools/health-impacts',
    body: JSON.stringify({
      metrics: ['avoided_premature_mortality_incidence'],
      upgrade: ['hvac__heat_pump_seer18_hspf10'],
      state_fips: ['48'],
      county_fips: ['*'],
    }),
  },
];

/** How a request reaches the server and what it accepts. */
const ROUTES = {
  'no Accept-Encoding': { via: 'app', acceptEncoding: undefined },
  'app brotli': { via: 'app', acceptEncoding: 'gzip, deflate, br' },
  'app gzip': { via: 'app', acceptEncoding: 'gzip' },
  'HAProxy gzip (app uncompressed)': { via: 'haproxy-gzip', acceptEncoding: 'gzip, deflate, br' },
  'HAProxy passing app brotli': { via: 'haproxy-plain', acceptEncoding: 'gzip, deflate, br' },
} as const;
type Route = keyof typeof ROUTES;
type Via = (typeof ROUTES)[Route]['via'];

/**
 * HAProxy in front of the server: one frontend compressing with gzip (`compression offload` drops the
 * request's Accept-Encoding, so the server answers uncompressed and HAProxy compresses every response),
 * and one passing answers through, to show what the extra hop costs by itself.
 */
async function startHaproxy(
  dir: string,
  app: string,
): Promise<{ child: ChildProcess; urls: Record<Via, string> }> {
  const [gzipPort, plainPort] = [await freePort(), await freePort()];
  const config = path.join(dir, `haproxy-${gzipPort}.cfg`);
  await writeFile(
    config,
    `global
  maxconn 4096
defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s
backend app
  server app1 ${new URL(app).host}
frontend gzip
  bind 127.0.0.1:${gzipPort}
  compression algo gzip
  compression type application/json
  compression offload
  default_backend app
frontend plain
  bind 127.0.0.1:${plainPort}
  default_backend app
`,
  );
  const child = spawn(HAPROXY, ['-f', config], { stdio: 'ignore' });
  const urls = {
    app,
    'haproxy-gzip': `http://127.0.0.1:${gzipPort}`,
    'haproxy-plain': `http://127.0.0.1:${plainPort}`,
  };
  await waitFor(`${urls['haproxy-plain']}/healthz`, () => true, child);
  return { child, urls };
}

async function measureCase(
  urls: Record<Via, string>,
  c: Case,
  label: string,
  dataNote: string,
): Promise<BenchResult[]> {
  const options = (route: Route): LoadOptions => {
    const { acceptEncoding } = ROUTES[route];
    return {
      method: c.method,
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(c.body ? { 'content-type': 'application/json' } : {}),
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      },
      ...(c.body ? { body: c.body } : {}),
      connections: CONNECTIONS,
    };
  };
  const routes = Object.keys(ROUTES) as Route[];
  const targets = Object.fromEntries(
    routes.map((route) => [
      route,
      (seconds: number) =>
        measureLoad(`${urls[ROUTES[route].via]}${c.path}`, { ...options(route), durationSeconds: seconds }),
    ]),
  ) as Record<Route, (seconds: number) => Promise<LoadFigures>>;
  // Each route's answer checked once (and the kept answers made), then one discarded second each.
  for (const route of routes) {
    const { headers, method, body } = options(route);
    const response = await fetch(`${urls[ROUTES[route].via]}${c.path}`, { method, headers, body });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${route} ${c.path} answered ${response.status}`);
    await targets[route](1);
  }
  const measured = await interleavedAll(targets);
  const identity = measured['no Accept-Encoding'];
  return routes.flatMap((route) => [
    {
      name: `${c.name}, ${label}, ${route}: bytes on the wire per response`,
      value: Math.round(measured[route].bytesPerResponse),
      unit: 'B',
      note: `headers included; ${(identity.bytesPerResponse / measured[route].bytesPerResponse).toFixed(1)}× fewer than without Accept-Encoding; ${dataNote}`,
    },
    {
      name: `${c.name}, ${label}, ${route}: throughput`,
      value: Math.round(measured[route].requestsPerSecond),
      unit: 'req/s',
      note: `p99 ${measured[route].p99Ms} ms; ${(measured[route].requestsPerSecond / identity.requestsPerSecond).toFixed(2)}× the throughput without Accept-Encoding; ${loadNote()}`,
    },
    failedRequests(`${c.name}, ${label}, ${route}`, measured[route]),
  ]);
}

export const bench: Bench = {
  title: `Compressed answers: bytes and throughput with and without Accept-Encoding, compressed by the server or by HAProxy (autocannon -c ${CONNECTIONS}, ${DURATION_SECONDS} s per route in ${SLICES} alternating slices)`,
  async run() {
    const source = nationalSource();
    const lakeDir = await mkdtemp(path.join(tmpdir(), 'compression-bench-'));
    const results: BenchResult[] = [];
    let server: ChildProcess | undefined;
    let haproxy: ChildProcess | undefined;
    try {
      const lakeEnv = incentivesLakeEnv(lakeDir, source.location);
      await runPipeline(lakeEnv);
      const health = await publishWithHealth(lakeDir);
      const dataNote = `${source.note ?? 'national incentives'}; ${health.synthetic ? 'SYNTHETIC' : "the pipeline's"} health cells (${health.cells})`;
      for (const [label, env] of [
        ['kept answers (default configuration)', {}],
        ['every answer computed and compressed (RESPONSE_CACHE_MB=0)', { RESPONSE_CACHE_MB: '0' }],
      ] as const) {
        const running = await startServer(
          { ...lakeEnv, API_KEYS: KEY, AS_OF_DATE, ...env },
          (body) => (body as { snapshot?: { id?: string } }).snapshot?.id === SNAPSHOT,
        );
        server = running.child;
        const proxy = await startHaproxy(lakeDir, running.base);
        haproxy = proxy.child;
        for (const c of CASES) results.push(...(await measureCase(proxy.urls, c, label, dataNote)));
        await stop(haproxy);
        await stop(server);
      }
      return results;
    } finally {
      if (haproxy) await stop(haproxy);
      if (server) await stop(server);
      await rm(lakeDir, { recursive: true, force: true });
    }
  },
};
