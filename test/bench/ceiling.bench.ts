import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchResult } from '../figures/bench-result.ts';
import { stop } from '../support/processes.ts';
import type { Bench } from './bench.ts';
import { CONNECTIONS, interleavedAll, loadNote, startBaseline } from './server-processes.ts';
import { measureLoad, sampleBody, type LoadFigures } from './static-baseline.ts';
import { workAtRatio } from './work-at-ratio.ts';

/*
 * What a ratio to the bare route leaves room for on this machine. The benches state a route's target as
 * its throughput over a bare Fastify route's serving the same bytes (≥ 0.5); this measures that ratio for
 * a bare route that first does W microseconds of busy work and then encodes its body anew, as a computed
 * answer must, for several W, in the same alternating slices as the bare route itself. It says how many
 * microseconds of work a request may cost, beyond what Fastify and the socket cost, before a route's
 * ratio falls to 0.5: the budget a computed answer (validation, auth, caching, logging and the answer
 * itself) has to fit in.
 */

/** Microseconds of work per request measured: none (only the body encoded anew) up to a computed answer's. */
const WORK_MICROSECONDS = [0, 6, 12, 24, 48] as const;

/** The ratio the benches' throughput targets ask for. */
const TARGET_RATIO = 0.5;

export const bench: Bench = {
  title: 'What a ratio to the bare route allows',
  async run() {
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-ceiling-'));
    const body = sampleBody();
    const bodiesFile = path.join(dir, 'bodies.json');
    await writeFile(bodiesFile, JSON.stringify([body]));
    const baseline = await startBaseline(bodiesFile, WORK_MICROSECONDS);
    try {
      const load = (route: string) => (seconds: number) =>
        measureLoad(`${baseline.url}${route}`, { connections: CONNECTIONS, durationSeconds: seconds });
      const targets: Record<string, (seconds: number) => Promise<LoadFigures>> = { bare: load('/static/0') };
      for (const us of WORK_MICROSECONDS) targets[`after ${us}`] = load(`/static/0/after/${us}`);
      const figures = await interleavedAll(targets);
      const bare = figures.bare!;
      const measured = WORK_MICROSECONDS.map((us) => ({
        workMicroseconds: us,
        requestsPerSecond: figures[`after ${us}`]!.requestsPerSecond,
      }));
      const size = `${Buffer.byteLength(body)} B body`;
      const results: BenchResult[] = measured.map(({ workMicroseconds, requestsPerSecond }) => ({
        name: `bare route after ${workMicroseconds} µs of work, its body encoded anew: throughput / bare route`,
        value: requestsPerSecond / bare.requestsPerSecond,
        unit: 'ratio',
        note: `${Math.round(requestsPerSecond)} vs ${Math.round(bare.requestsPerSecond)} req/s, ${size}`,
      }));
      const atTarget = workAtRatio(bare.requestsPerSecond, measured, TARGET_RATIO);
      if (atTarget !== null) {
        results.push({
          name: `work per request at which a route's throughput is ${TARGET_RATIO} of the bare route's`,
          value: atTarget,
          unit: 'µs',
          note: `interpolated between the measured amounts of work; ${loadNote()}`,
        });
      }
      const failed = [bare, ...WORK_MICROSECONDS.map((us) => figures[`after ${us}`]!)].reduce(
        (sum, f) => sum + f.failed,
        0,
      );
      results.push({
        name: 'failed requests',
        value: failed,
        unit: 'requests',
        target: { op: '<=', value: 0 },
      });
      return results;
    } finally {
      await stop(baseline.child);
      await rm(dir, { recursive: true, force: true });
    }
  },
};
