import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { buildApp } from '../../serve/app.ts';
import type { ApiModule } from '../../serve/api-module.ts';
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
import { measureLoad, measureStaticBaseline, type LoadFigures } from './static-baseline.ts';

const KEY = 'bench-key-0123456789abcdef';

/** ≈ 20 KB of JSON shaped like an incentives answer: the size the service's data routes return. */
function sampleBody(): string {
  const incentives = Array.from({ length: 60 }, (_, i) => ({
    id: `incentive-${i}`,
    program: `State Heat Pump Rebate Program ${i}`,
    authority: i % 2 === 0 ? 'state' : 'utility',
    items: ['heat_pump_air_conditioner_heater', 'heat_pump_water_heater'],
    amount: { type: 'dollar_amount', number: 500 + i * 25, maximum: 8000 },
    start_date: '2025-01-01',
    end_date: '2027-12-31',
  }));
  return JSON.stringify({ is_under_80_ami: true, is_under_150_ami: true, incentives });
}

/** Serves a pre-serialised body from the pinned snapshot, so the measured difference is the shell alone. */
function staticBodyModule(body: string): ApiModule<string> {
  return {
    serving: { name: 'static-body', tables: [PROGRAMS], load: async () => body },
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

/** Mean of each figure over rounds (failures summed). */
function combine(runs: LoadFigures[]): LoadFigures {
  const mean = (f: (r: LoadFigures) => number) => runs.reduce((sum, r) => sum + f(r), 0) / runs.length;
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p99Ms: mean((r) => r.p99Ms),
    bytesPerResponse: mean((r) => r.bytesPerResponse),
    failed: runs.reduce((sum, r) => sum + r.failed, 0),
  };
}

/**
 * CPU time per request through `inject` (no sockets): unlike req/s, barely moved by other processes on
 * the machine, so the shell's own cost per request shows even when throughput figures are noisy.
 */
async function cpuMicrosPerRequest(app: FastifyInstance, url: string, headers: Record<string, string>) {
  const count = 5000;
  for (let i = 0; i < 500; i++) await app.inject({ method: 'GET', url, headers });
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await app.inject({ method: 'GET', url, headers });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

/** Baseline and shell alternate, so both see the same load from whatever else shares the machine. */
const ROUNDS = 2;
const SECONDS = 4;

export const bench: Bench = {
  title: 'Serving shell: bare static route vs. the same body through auth, rate limit, pinning and ETag',
  async run() {
    const body = sampleBody();
    const logger = silentLogger();
    const module = staticBodyModule(body);
    const source = new MemorySnapshotSource();
    source.publish(memoryReader('bench'));
    const holder = new SnapshotHolder({ source, modules: [module.serving], pollMs: 60_000, logger });
    await holder.start();
    const app = await buildApp({
      config: testConfig({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '100000000' }),
      logger,
      snapshots: holder,
      apiModules: [module],
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
      // Encoded once, as measureStaticBaseline's route does.
      const bytes = Buffer.from(body);
      const bare = Fastify({ logger: false });
      bare.get('/static', (_request, reply) => {
        reply.type('application/json; charset=utf-8').send(bytes);
      });
      const bareCpu = await cpuMicrosPerRequest(bare, '/static', {});
      const shellCpu = await cpuMicrosPerRequest(app as unknown as FastifyInstance, '/v1/static', headers);
      await bare.close();
      const ratios = shellRuns.map((r, i) => r.requestsPerSecond / baselineRuns[i]!.requestsPerSecond);
      return [
        ...figures(
          'bare static 20 KB',
          combine(baselineRuns),
          `autocannon -c 50, ${ROUNDS} × ${SECONDS} s alternating with the shell, same process`,
        ),
        ...figures('through the shell 20 KB', combine(shellRuns)),
        {
          name: 'shell / bare static throughput',
          value: ratios.reduce((a, b) => a + b, 0) / ratios.length,
          unit: 'ratio',
          target: { op: '>=', value: 0.5 },
          note: `per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
        },
        ...figures('conditional GET answered 304', notModified),
        { name: 'bare static CPU per request (inject)', value: bareCpu, unit: 'µs' },
        {
          name: 'shell CPU per request (inject)',
          value: shellCpu,
          unit: 'µs',
          note: `the shell adds ${(shellCpu - bareCpu).toFixed(1)} µs of CPU per request`,
        },
      ];
    } finally {
      await app.close();
      holder.close();
    }
  },
};
