import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../lib/config.ts';
import { createLogger } from '../../../lib/log.ts';
import type { Config } from '../../../schemas/config.ts';
import { runPipeline, type RunPipelineOptions, type PipelineResult } from '../../../pipeline/run-pipeline.ts';
import { demoDefinitions, DEMO_DATA_DIR } from './demo-definitions.ts';

/** A throwaway lake and a writable copy of the demo source, for one test. */
export interface DemoLake {
  lakeDir: string;
  sourceDir: string;
  config: Config;
  /** Replaces prices.csv with a header and these lines. */
  writePrices(lines: string[]): Promise<void>;
  /** One pipeline run over the demo definitions, quiet, with a fixed code version. */
  run(overrides?: Partial<RunPipelineOptions>): Promise<PipelineResult>;
  remove(): Promise<void>;
}

/**
 * A demo lake in a new directory, or with `lakeUrl` in that store (the directory is then the run's working
 * directory; the S3 client takes its endpoint and credentials from the environment, as it always does).
 */
export async function createDemoLake({ lakeUrl }: { lakeUrl?: string | undefined } = {}): Promise<DemoLake> {
  const root = await mkdtemp(path.join(tmpdir(), 'demo-lake-'));
  const lakeDir = path.join(root, 'lake');
  const sourceDir = path.join(root, 'source');
  await cp(DEMO_DATA_DIR, sourceDir, { recursive: true });
  const config = loadConfig({
    LAKE_DIR: lakeDir,
    LOG_LEVEL: 'silent',
    ...(lakeUrl === undefined ? {} : { LAKE_URL: lakeUrl }),
  });
  const logger = createLogger('silent');
  return {
    lakeDir,
    sourceDir,
    config,
    writePrices: (lines) =>
      writeFile(path.join(sourceDir, 'prices.csv'), ['item,region,price_usd', ...lines, ''].join('\n')),
    run: (overrides = {}) =>
      runPipeline({
        config,
        logger,
        definitions: demoDefinitions(sourceDir),
        codeVersion: 'test',
        ...overrides,
      }),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
