import { z } from 'zod';
import { buildApp } from '../../serve/app.ts';
import type { RouteGroup } from '../../serve/route-group.ts';
import { SnapshotHolder } from '../../serve/snapshot/snapshot-holder.ts';
import {
  MemorySnapshotSource,
  PROGRAMS,
  memoryReader,
  silentLogger,
  testConfig,
} from '../support/serve-fixtures.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';
import { measureLoad, measureStaticBaseline, sampleBody, type LoadFigures } from './static-baseline.ts';

const KEY = 'bench-key-0123456789abcdef';

/** Serves a pre-serialised body from the pinned snapshot, so the measured difference is the shell alone. */
function staticBodyModule(body: string): RouteGroup<string> {
  return {
    loader: { name: 'static-body', tables: [PROGRAMS], load: async () => body },
    register(app, ctx) {
      app.get('/v1/static', { schema: { querystring: z.object({}) } }, (request, reply) => {
        reply.type('application/json; charset=utf-8').send(ctx.data(request));
      });
    },
  };
}

function figures(name: string, f: LoadFigures, note?: string): BenchResult[] {
  return [
    {
      name: `${name} throughput`,
      value: Math.round(f.requestsPerSecond),
      unit: 'req/s',
      ...(note ? { note } : {}),
    },
    { name: `${name} p99 latency`, value: f.p99Ms, unit: 'ms' },
    { name: `${name} failed requests`, value: f.failed, unit: 'requests', target: { op: '<=', value: 0 } },
  ];
}

/** Mean of each figure over rounds (failures summed, the largest max). */
function combine(runs: LoadFigures[]): LoadFigures {
  const mean = (f: (r: LoadFigures) => number) => runs.reduce((sum, r) => sum + f(r), 0) / runs.length;
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p99Ms: mean((r) => r.p99Ms),
    maxMs: Math.max(...runs.map((r) => r.maxMs)),
    bytesPerResponse: mean((r) => r.bytesPerResponse),
    failed: runs.reduce((sum, r) => sum + r.failed, 0),
  };
}

/** Baseline and shell alternate, so both see the same load from whatever else shares the machine. */
const ROUNDS = 2;
const SECONDS = 4;

export const bench: Bench = {
  title: 'Serving shell: bare static route vs. the same body through auth, rate limit, pinning and ETag',
  async run() {
    const body = sampleBody();
    const size = `${Math.round(Buffer.byteLength(body) / 1024)} KB`;
    const logger = silentLogger();
    const module = staticBodyModule(body);
    const source = new MemorySnapshotSource();
    source.publish(memoryReader('bench'));
    const holder = new SnapshotHolder({ source, loaders: [module.loader], pollMs: 60_000, logger });
    await holder.start();
    const app = await buildApp({
      config: testConfig({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '100000000' }),
      logger,
      snapshots: holder,
      routeGroups: [module],
      keyStore: {
        authenticate: (key) => (key === KEY ? { id: 'bench', name: 'bench', reviewer: false } : null),
      },
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const headers = { authorization: `Bearer ${KEY}` };
      const baselineRuns: LoadFigures[] = [];
      const shellRuns: LoadFigures[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        baselineRuns.push(await measureStaticBaseline(body, { durationSeconds: SECONDS }));
        shellRuns.push(await measureLoad(`${base}/v1/static`, { headers, durationSeconds: SECONDS }));
      }
      const etag = (await fetch(`${base}/v1/static`, { headers })).headers.get('etag')!;
      const notModified = await measureLoad(`${base}/v1/static`, {
        headers: { ...headers, 'if-none-match': etag },
        alsoOk: [304],
        durationSeconds: SECONDS,
      });
      const ratios = shellRuns.map((r, i) => r.requestsPerSecond / baselineRuns[i]!.requestsPerSecond);
      return [
        ...figures(
          `bare static ${size}`,
          combine(baselineRuns),
          `autocannon -c 50, ${ROUNDS} × ${SECONDS} s alternating with the shell, same process`,
        ),
        ...figures(`through the shell ${size}`, combine(shellRuns)),
        {
          name: 'shell / bare static throughput',
          value: ratios.reduce((a, b) => a + b, 0) / ratios.length,
          unit: 'ratio',
          target: { op: '>=', value: 0.5 },
          note: `per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
        },
        ...figures('conditional GET answered 304', notModified),
      ];
    } finally {
      await app.close();
      holder.close();
    }
  },
};
