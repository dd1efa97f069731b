import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventLog } from '../../ingest/eventlog/embedded-log.ts';
import { loadConfig } from '../../lib/config.ts';
import { createFileReader } from '../../ingest/connectors/file-reader.ts';
import { eiaSedsResidentialPricesParser } from '../../ingest/parsers/eia-seds-residential-prices.ts';
import { remCountyProfilesParser } from '../../ingest/parsers/rem-county-profiles.ts';
import { remEmissionFactorsParser } from '../../ingest/parsers/rem-emission-factors.ts';
import type { SourceParser } from '../../ingest/source.ts';
import { createLogger } from '../../lib/log.ts';
import { createProgress } from '../../lib/progress.ts';
import {
  countyProfileSchema,
  emissionFactorSchema,
  energyRateSchema,
  CONTIGUOUS_STATE_FIPS,
} from '../../schemas/rem-data.ts';
import type { RemWorkUnit } from '../../schemas/rem-stage.ts';
import { UPGRADES } from '../../schemas/rem.ts';
import { gatherResults, runSimulateStage } from '../../transform/pipeline/simulate-stage.ts';
import { WorkerPool } from '../../simulate/stage/worker-pool.ts';
import { planWorkUnits } from '../../simulate/stage/work-units.ts';
import { readModelFiles } from '../../simulate/surrogate/committed-model.ts';
import type { Bench, BenchResult } from './bench.ts';

// The national REM precompute: every cluster (county × heating fuel × water-heater fuel given or not) of
// the default county table, N = 400 homes, all 8 upgrades, through the embedded log, with 1 and with 2
// worker threads. REM_BENCH_COUNTIES=all runs every county; by default an even subset of counties runs
// and the national time is extrapolated from its clusters/s (said so in the figure's note).
const DATA = path.join(import.meta.dirname, '..', '..', 'ingest', 'default-data', 'rem');
const SAMPLES = 400;
const NATIONAL_TARGET_S = 15 * 60;

async function parse(parser: SourceParser, file: string): Promise<unknown[]> {
  return (await parser.parse(createFileReader(path.join(DATA, file)))).map((r) => r.payload);
}

async function stageSeconds(units: readonly RemWorkUnit[], workers: number, onnx: Uint8Array) {
  const dir = await mkdtemp(path.join(tmpdir(), 'rem-bench-'));
  const log = await EmbeddedEventLog.open({ directory: dir });
  const logger = createLogger('silent');
  const startup = performance.now();
  const pool = await WorkerPool.start(workers, onnx);
  const startupSeconds = (performance.now() - startup) / 1000;
  try {
    const started = performance.now();
    const outcome = await runSimulateStage({
      log,
      units,
      startRunner: () => Promise.resolve(pool),
      stallTimeoutMs: loadConfig({}).SIMULATE_STALL_TIMEOUT_MS,
      logger,
      progress: createProgress({ logger }),
    });
    const seconds = (performance.now() - started) / 1000;
    const gatherStart = performance.now();
    let supported = 0;
    const gathered = await gatherResults(
      log,
      new Map(units.map((u) => [u.cluster_id, u.fingerprint])),
      (result) => void (supported += result.supported ? 1 : 0),
    );
    const gatherSeconds = (performance.now() - gatherStart) / 1000;
    if (gathered !== units.length) throw new Error(`gathered ${gathered} of ${units.length} results`);
    return { startupSeconds, seconds, gatherSeconds, evaluations: outcome.evaluations, supported };
  } finally {
    await pool.close();
    await log.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export const bench: Bench = {
  title: 'REM national precompute (simulate stage, embedded log, worker threads)',
  async run() {
    const counties = (await parse(remCountyProfilesParser, 'counties.csv'))
      .map((c) => countyProfileSchema.parse(c))
      .filter((c) => c.state in CONTIGUOUS_STATE_FIPS);
    const rates = (
      await parse(eiaSedsResidentialPricesParser, 'eia-seds-residential-prices-2021-2023-converted.csv')
    ).map((r) => energyRateSchema.parse(r));
    const factors = (await parse(remEmissionFactorsParser, 'emission-factors.csv')).map((f) =>
      emissionFactorSchema.parse(f),
    );
    const model = await readModelFiles();
    const identity = { version: model.card.model_version, sha256: model.card.onnx.sha256 };
    const national = planWorkUnits(counties, rates, factors, { samples: SAMPLES, model: identity });

    const wanted = process.env.REM_BENCH_COUNTIES ?? '40';
    const step = wanted === 'all' ? 1 : Math.max(1, Math.floor(counties.length / Number(wanted)));
    const chosen = new Set(counties.filter((_, i) => i % step === 0).map((c) => c.county_fips));
    const units = national.filter((u) => chosen.has(u.county.county_fips));
    const subset = units.length < national.length;

    const one = await stageSeconds(units, 1, model.onnx);
    const two = await stageSeconds(units, 2, model.onnx);
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
      { name: 'clusters/s, 2 workers', value: units.length / two.seconds, unit: 'clusters/s' },
      {
        name: 'home evaluations/s, 2 workers',
        value: Math.round(two.evaluations / two.seconds),
        unit: 'evaluations/s',
      },
      { name: 'clusters/s, 1 worker', value: units.length / one.seconds, unit: 'clusters/s' },
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
        note: 'after the worker threads have started',
      },
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
    return results;
  },
};
