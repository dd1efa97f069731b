import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventLog } from '../../eventlog/embedded-log.ts';
import { loadConfig } from '../../lib/config.ts';
import { createFileReader } from '../../ingest/connectors/file-reader.ts';
import { eiaSedsResidentialPricesParser } from '../../ingest/parsers/eia-seds-residential-prices.ts';
import { remCountyProfilesParser } from '../../ingest/parsers/rem-county-profiles.ts';
import { remEmissionFactorsParser } from '../../ingest/parsers/rem-emission-factors.ts';
import {
  countyGridRegionsParser,
  gridGenerationParser,
  lrmerProfilesParser,
} from '../../ingest/parsers/grid-sources.ts';
import { gridEmissionFactors, gridRegionRows } from '../../transform/tables/rem/long-run-grid.ts';
import type { SourceParser } from '../../ingest/source.ts';
import { createLogger } from '../../lib/log.ts';
import { createProgress } from '../../lib/progress.ts';
import {
  countyGridRegionSchema,
  countyProfileSchema,
  emissionFactorSchema,
  energyRateSchema,
  gridGenerationSchema,
  lrmerProfileSchema,
  CONTIGUOUS_STATE_FIPS,
} from '../../schemas/rem-data.ts';
import type { RemWorkUnit } from '../../schemas/rem-stage.ts';
import { UPGRADES } from '../../schemas/rem.ts';
import { gatherResults, runSimulateStage } from '../../simulate/simulate-stage.ts';
import { WorkerPool } from '../../simulate/worker-pool.ts';
import { simulateCodeHash } from '../../simulate/simulate-code.ts';
import { planWorkUnits } from '../../simulate/work-units.ts';
import { readModelFiles } from '../../model/surrogate/committed-model.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';
import { cpuByRole, libuvPoolThreadIds, readThreadCpu, type CpuByRole } from './thread-cpu.ts';

// The national REM precompute: every cluster (county × heating fuel × water-heater fuel given or not) of
// the default county table, N = 400 homes, all 8 upgrades, through the embedded log, with 1 and with 2
// worker threads. REM_BENCH_COUNTIES=all runs every county; by default an even subset of counties runs
// and the national time is extrapolated from its clusters/s (said so in the figure's note). Each pool is
// warmed up by an untimed pass before the timed one (see stageSeconds).
const DATA = path.join(import.meta.dirname, '..', '..', 'ingest', 'default-data', 'rem');
const SAMPLES = 400;
const NATIONAL_TARGET_S = 15 * 60;

async function parse(parser: SourceParser, file: string): Promise<unknown[]> {
  return (await parser.parse(createFileReader(path.join(DATA, file)))).map((r) => r.payload);
}

async function stageSeconds(
  units: readonly RemWorkUnit[],
  workers: number,
  onnx: Uint8Array,
  libuvPool: ReadonlySet<number>,
) {
  const dir = await mkdtemp(path.join(tmpdir(), 'rem-bench-'));
  const log = await EmbeddedEventLog.open({ directory: dir });
  const logger = createLogger('silent');
  const startup = performance.now();
  const pool = await WorkerPool.start(workers, onnx);
  const startupSeconds = (performance.now() - startup) / 1000;
  try {
    // Each worker isolate compiles the simulate code as it meets it (TurboFan, on V8's helper threads, with
    // recompilations as new shapes of data arrive): ~0.7 s of CPU per isolate, a sixth of a 2-worker run
    // of the subset's clusters but ~0.1 % of the national run the subset stands for. One untimed pass of
    // (up to 1,000 of) the units through the pool warms it up, as the national run's first seconds do; its
    // time is reported too.
    const warmUpStart = performance.now();
    await Promise.all(warmUpUnits(units).map((unit) => pool.run(unit)));
    const warmUpSeconds = (performance.now() - warmUpStart) / 1000;
    const loadBefore = loadavg()[0]!;
    const cpuBefore = readThreadCpu();
    let cpuAfter: Map<number, number> | null = null;
    const started = performance.now();
    const outcome = await runSimulateStage({
      log,
      units,
      // The stage closes its runner when every result is in: the threads' CPU is read then, while they live.
      startRunner: () =>
        Promise.resolve({
          concurrency: pool.concurrency,
          run: (unit: RemWorkUnit) => pool.run(unit),
          close: () => {
            cpuAfter = readThreadCpu();
            return Promise.resolve();
          },
        }),
      stallTimeoutMs: loadConfig({}).SIMULATE_STALL_TIMEOUT_MS,
      logger,
      progress: createProgress({ logger }),
    });
    const seconds = (performance.now() - started) / 1000;
    const load = `load average ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`;
    const cpu =
      cpuBefore && cpuAfter
        ? cpuByRole(cpuBefore, cpuAfter, { workers: pool.systemThreadIds, libuvPool })
        : null;
    const gatherStart = performance.now();
    let supported = 0;
    const gathered = await gatherResults(
      log,
      new Map(units.map((u) => [u.cluster_id, u.fingerprint])),
      (result) => void (supported += result.supported ? 1 : 0),
    );
    const gatherSeconds = (performance.now() - gatherStart) / 1000;
    if (gathered !== units.length) throw new Error(`gathered ${gathered} of ${units.length} results`);
    return {
      startupSeconds,
      warmUpSeconds,
      seconds,
      gatherSeconds,
      evaluations: outcome.evaluations,
      supported,
      cpu,
      load,
    };
  } finally {
    await pool.close();
    await log.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** At most WARM_UP_UNITS of the units, spread evenly over them (all of the default subset). */
const WARM_UP_UNITS = 1000;
function warmUpUnits(units: readonly RemWorkUnit[]): RemWorkUnit[] {
  const step = Math.ceil(units.length / WARM_UP_UNITS);
  return units.filter((_, i) => i % step === 0);
}

/** Where one run's CPU went, per cluster: the figures that explain the speed-up, whatever it is. */
function cpuResults(label: string, cpu: CpuByRole, clusters: number): BenchResult[] {
  const perCluster = (ms: number) => Number((ms / clusters).toFixed(3));
  const share = (ms: number) => `${Math.round((100 * ms) / cpu.total)} % of the process's CPU`;
  return [
    {
      name: `CPU per cluster, ${label}: whole process`,
      value: perCluster(cpu.total),
      unit: 'ms',
      note: 'user + system time of every thread (/proc/self/task)',
    },
    {
      name: `CPU per cluster, ${label}: main thread`,
      value: perCluster(cpu.main),
      unit: 'ms',
      note: `${share(cpu.main)}: publishes units, takes results, appends them to the log`,
    },
    ...cpu.workers.map((ms, i) => ({
      name: `CPU per cluster, ${label}: worker thread ${i + 1}`,
      value: perCluster(ms),
      unit: 'ms',
      note: `${share(ms)}: sampler, upgrades, features, ONNX, statistics, Arrow`,
    })),
    {
      name: `CPU per cluster, ${label}: V8 helper threads`,
      value: perCluster(cpu.other),
      unit: 'ms',
      note: `${share(cpu.other)}: concurrent/parallel GC and background compilation of every isolate`,
    },
    {
      name: `CPU per cluster, ${label}: libuv pool`,
      value: perCluster(cpu.libuvPool),
      unit: 'ms',
      note: `${share(cpu.libuvPool)}: the log's file writes and fsyncs`,
    },
  ];
}

export const bench: Bench = {
  title: 'REM national precompute (simulate stage, embedded log, worker threads)',
  async run() {
    const regions = new Map(
      (await parse(countyGridRegionsParser, 'county-grid-regions-reeds-2024.csv'))
        .map((r) => countyGridRegionSchema.parse(r))
        .map((r) => [r.county_fips, r.grid_region]),
    );
    const counties = (await parse(remCountyProfilesParser, 'counties.csv'))
      .map((c) => countyProfileSchema.parse(c))
      .filter((c) => c.state in CONTIGUOUS_STATE_FIPS)
      .map((c) => ({ ...c, grid_region: regions.get(c.county_fips)! }));
    const rates = (
      await parse(eiaSedsResidentialPricesParser, 'eia-seds-residential-prices-2021-2023-converted.csv')
    ).map((r) => energyRateSchema.parse(r));
    const factors = (await parse(remEmissionFactorsParser, 'emission-factors.csv')).map((f) =>
      emissionFactorSchema.parse(f),
    );
    const gridRegions = gridRegionRows(
      (await parse(lrmerProfilesParser, 'cambium-2024-lrmer-midcase-15-years.csv')).map((p) =>
        lrmerProfileSchema.parse(p),
      ),
      (await parse(gridGenerationParser, 'cambium-2024-midcase-generation.csv')).map((g) =>
        gridGenerationSchema.parse(g),
      ),
    );
    const model = await readModelFiles();
    const identity = { version: model.card.model_version, sha256: model.card.onnx.sha256 };
    const gridFactors = gridEmissionFactors(counties, gridRegions, factors);
    const national = planWorkUnits(counties, rates, factors, gridFactors, {
      samples: SAMPLES,
      model: identity,
      code: simulateCodeHash(),
    });

    const wanted = process.env.REM_BENCH_COUNTIES ?? '40';
    const step = wanted === 'all' ? 1 : Math.max(1, Math.floor(counties.length / Number(wanted)));
    const chosen = new Set(counties.filter((_, i) => i % step === 0).map((c) => c.county_fips));
    const units = national.filter((u) => chosen.has(u.county.county_fips));
    const subset = units.length < national.length;

    const libuvPool = await libuvPoolThreadIds();
    const one = await stageSeconds(units, 1, model.onnx, libuvPool);
    const two = await stageSeconds(units, 2, model.onnx, libuvPool);
    const nationalSeconds = two.startupSeconds + (two.seconds * national.length) / units.length;
    const scope = `${chosen.size} of ${counties.length} counties, ${units.length} clusters (${two.supported} supported), N = ${SAMPLES}, ${UPGRADES.length} upgrades`;
    const results: BenchResult[] = [
      {
        name: subset
          ? 'national precompute, 2 workers (extrapolated from the subset)'
          : 'national precompute, 2 workers',
        value: Math.round(nationalSeconds),
        unit: 's',
        target: { op: '<=', value: NATIONAL_TARGET_S },
        note: subset ? `${national.length} clusters at the subset's clusters/s; measured on ${scope}` : scope,
      },
      {
        name: 'clusters/s, 2 workers',
        value: units.length / two.seconds,
        unit: 'clusters/s',
        note: two.load,
      },
      {
        name: 'home evaluations/s, 2 workers',
        value: Math.round(two.evaluations / two.seconds),
        unit: 'evaluations/s',
      },
      { name: 'clusters/s, 1 worker', value: units.length / one.seconds, unit: 'clusters/s', note: one.load },
      {
        name: 'home evaluations/s, 1 worker',
        value: Math.round(one.evaluations / one.seconds),
        unit: 'evaluations/s',
      },
      {
        name: 'speed-up from 1 to 2 workers',
        value: one.seconds / two.seconds,
        unit: '×',
        target: { op: '>=', value: 1.7 },
        note: 'after the worker threads have started and run the units once untimed (JIT warm-up)',
      },
      {
        name: 'speed-up from 1 to 2 workers, warm-up passes',
        value: one.warmUpSeconds / two.warmUpSeconds,
        unit: '×',
        note: `each pool's first pass over ${warmUpUnits(units).length} units (straight to the pool, no log), compiling as it goes: ${one.warmUpSeconds.toFixed(2)} s with 1 worker, ${two.warmUpSeconds.toFixed(2)} s with 2`,
      },
      ...speedUpCeiling(one.cpu),
      {
        name: 'starting 2 worker threads',
        value: two.startupSeconds,
        unit: 's',
        note: 'tsx and onnxruntime per thread',
      },
      {
        name: 'gathering the results back from the log',
        value: two.gatherSeconds,
        unit: 's',
        note: `${units.length} results`,
      },
    ];
    if (one.cpu) results.push(...cpuResults('1 worker', one.cpu, units.length));
    if (two.cpu) results.push(...cpuResults('2 workers', two.cpu, units.length));
    return results;
  },
};

/**
 * The speed-up the CPU cost allows, from the 1-worker run's CPU alone (so another process's load does not
 * move it): one worker is paced by its own thread (W per cluster) while the process spends T per cluster on
 * all its threads; two workers need 2T of CPU for every two clusters, which C cores give at best in T / C.
 * So the speed-up is at most min(2, C·W / T): every millisecond of the main thread, the GC helpers or the
 * pool that runs beside the worker lowers it, however the work is spread.
 */
function speedUpCeiling(cpu: CpuByRole | null): BenchResult[] {
  if (!cpu) return [];
  const cores = availableParallelism();
  return [
    {
      name: `speed-up ceiling from CPU per cluster, ${cores} cores`,
      value: Math.min(2, (cores * cpu.workers[0]!) / cpu.total),
      unit: '×',
      note: `min(2, cores × worker-thread CPU ÷ process CPU) of the 1-worker run; the main thread alone is ${Math.round((100 * cpu.main) / cpu.total)} % of the CPU`,
    },
  ];
}
