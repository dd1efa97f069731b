import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedEventLog } from '../../../eventlog/embedded-log.ts';
import { loadConfig } from '../../../lib/config.ts';
import { createLogger, type Logger } from '../../../lib/log.ts';
import type { Config } from '../../../schemas/config.ts';
import type { CountyProfile, EmissionFactor, EnergyRate } from '../../../schemas/rem-data.ts';
import type { RemWorkUnit } from '../../../schemas/rem-stage.ts';
import { simulateCodeHash } from '../../../simulate/simulate-code.ts';
import { planWorkUnits } from '../../../simulate/work-units.ts';
import type { ModelFiles } from '../../../model/surrogate/committed-model.ts';
import type { PipelineDefinitions } from '../../../pipeline/definitions.ts';
import { runPipeline, type PipelineResult } from '../../../pipeline/run-pipeline.ts';
import { remStageTables, type RemStageTableOptions } from '../../../transform/tables/rem/rem-stage-tables.ts';
import { healthImpactsTable } from '../../../transform/tables/health/health-impacts-table.ts';
import { placeDamageFactorsTable } from '../../../transform/tables/health/place-damage-factors-table.ts';
import { gridEmissionFactors } from '../../../transform/tables/rem/long-run-grid.ts';
import { FIXTURE_GRID_REGIONS, fixtureGridRegion } from '../grid-fixture.ts';
import { remFixtureParser, remFixtureRecordSchemas, remFixtureTables } from './rem-fixture-source.ts';

export const REM_FIXTURE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data');

/** The fixture REM data and the simulate stage's tables, defined together. */
export function remDefinitions(
  location: string,
  stage: Pick<RemStageTableOptions, 'afterResults' | 'simulateCode'> = {},
): PipelineDefinitions {
  return {
    parsers: [remFixtureParser],
    recordSchemas: remFixtureRecordSchemas,
    tables: [...remFixtureTables, ...remStageTables(stage), placeDamageFactorsTable, healthImpactsTable],
    sources: [{ name: 'rem-fixture', kind: remFixtureParser.kind, location }],
  };
}

/** The work units of the fixture's first `counties` counties (20 clusters each), `samples` homes per cluster. */
export async function planFixtureUnits(
  model: ModelFiles,
  { counties, samples }: { counties: number; samples: number },
): Promise<RemWorkUnit[]> {
  const fixture = JSON.parse(await readFile(path.join(REM_FIXTURE_DIR, 'rem.json'), 'utf8')) as {
    counties: CountyProfile[];
    rates: Omit<EnergyRate, 'year' | 'publisher' | 'method'>[];
    factors: Omit<EmissionFactor, 'pollutant' | 'year' | 'publisher'>[];
  };
  const rates = fixture.rates.map((r) => ({
    ...r,
    year: 2024,
    publisher: 'test fixture',
    method: 'fixture',
  }));
  const factors = fixture.factors.map((f) => ({
    ...f,
    pollutant: 'co2e' as const,
    year: 2024,
    publisher: 'test fixture',
  }));
  const chosen = fixture.counties
    .slice(0, counties)
    .map((county) => ({ ...county, grid_region: fixtureGridRegion(county.county_fips) }));
  return planWorkUnits(chosen, rates, factors, gridEmissionFactors(chosen, FIXTURE_GRID_REGIONS, factors), {
    samples,
    model: { version: model.card.model_version, sha256: model.card.onnx.sha256 },
    code: simulateCodeHash(),
  });
}

/** Printed on stderr by rem-pipeline-child.ts when its run stops after its first results. */
export const RESULTS_PAUSE_MARKER = 'REM_RESULTS_PAUSED';

/** Settings of the stage tests: few homes per cluster, two worker threads. */
export const REM_TEST_ENV = {
  REM_SAMPLES: '40',
  SIMULATE_WORKERS: '2',
  REM_STATES: 'all',
  HEALTH_STATES: 'all',
  LOG_LEVEL: 'silent',
};

export type RemTestEnv = Partial<Record<keyof typeof REM_TEST_ENV, string>>;

export interface RemRunOptions {
  /** Settings of this run, over the lake's own. */
  env?: RemTestEnv;
  /** Stands in another simulate code's hash (as if the sampler had been edited). */
  simulateCode?: () => string;
  logger?: Logger;
}

export interface RemLake {
  lakeDir: string;
  sourceDir: string;
  config: Config;
  run(options?: RemRunOptions): Promise<PipelineResult>;
  remove(): Promise<void>;
}

/** A lake over a copy of the fixture source; `env` overrides REM_TEST_ENV (e.g. REM_STATES). */
export async function createRemLake(env: RemTestEnv = {}): Promise<RemLake> {
  const root = await mkdtemp(path.join(tmpdir(), 'rem-lake-'));
  const lakeDir = path.join(root, 'lake');
  const sourceDir = path.join(root, 'source');
  await cp(REM_FIXTURE_DIR, sourceDir, { recursive: true });
  const config = loadConfig({ ...REM_TEST_ENV, ...env, LAKE_DIR: lakeDir });
  return {
    lakeDir,
    sourceDir,
    config,
    run: (options = {}) =>
      runPipeline({
        config: loadConfig({ ...REM_TEST_ENV, ...env, ...options.env, LAKE_DIR: lakeDir }),
        logger: options.logger ?? createLogger('silent'),
        definitions: remDefinitions(
          sourceDir,
          options.simulateCode ? { simulateCode: options.simulateCode } : {},
        ),
        codeVersion: 'test',
      }),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** Keys (cluster ids) of every record of a topic on a lake's embedded log, partition by partition. */
export async function keysOnLog(lakeDir: string, topic: string): Promise<string[]> {
  const log = await EmbeddedEventLog.open({ directory: path.join(lakeDir, 'log') });
  const keys: string[] = [];
  try {
    await log.drain({
      groupId: `test-${Date.now()}`,
      topics: [topic],
      onBatch: async (records) => void keys.push(...records.map((r) => r.key)),
    });
  } finally {
    await log.close();
  }
  return keys;
}
