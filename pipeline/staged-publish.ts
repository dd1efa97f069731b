import type { PipelineDefinitions } from './definitions.ts';
import type { Lake } from '../data-lake/lake.ts';
import { readPublishedManifest } from '../data-lake/snapshot-store.ts';
import { SAMPLE_STATES, type Config } from '../schemas/config.ts';
import { declaredSettings, inputNames, type AnyLakeTable } from '../transform/tables/lake-table.ts';

/*
 * A fresh lake is published in stages so every family answers in seconds: the first run builds only a few
 * tables (and those they read), a second the whole definitions on settings that make it quick (see
 * firstAnswersConfig), the last the whole definitions on the configured settings. A later run's fingerprints of
 * an earlier run's tables are equal where nothing they depend on changed, so it takes their files over, and
 * the simulate stage computes no cluster twice (its results stay on the event log).
 */

/** The definitions narrowed to `first` and every table they read, in definitions order; sources stay whole. */
export function firstStageCatalog(
  definitions: PipelineDefinitions,
  first: readonly AnyLakeTable[],
): PipelineDefinitions {
  const byName = new Map(definitions.tables.map((table) => [table.name, table]));
  const keep = new Set<string>();
  const visit = (name: string) => {
    if (keep.has(name)) return;
    const table = byName.get(name);
    if (table === undefined) throw new Error(`first-stage table ${name} is not in the definitions`);
    keep.add(name);
    for (const input of inputNames(table).tables) visit(input);
  };
  for (const table of first) visit(table.name);
  return { ...definitions, tables: definitions.tables.filter((table) => keep.has(table.name)) };
}

/**
 * The settings of a fresh lake's quick stage: no REM state precomputed (the REM model computes any county
 * when asked, in a fraction of a second) and the health rollup of the configured health states among the
 * sample's alone: seconds, where the configured precompute takes minutes.
 */
export function firstAnswersConfig(config: Config): Config {
  const inSample = (state: string) => (SAMPLE_STATES as readonly string[]).includes(state);
  const health = config.HEALTH_STATES === 'all' ? [...SAMPLE_STATES] : config.HEALTH_STATES.filter(inSample);
  return { ...config, REM_STATES: [], HEALTH_STATES: health };
}

/**
 * The defined tables a start still has to build (all of them when nothing is published): those the
 * published snapshot lacks (after the first stage, or a run of newer code that declared a table), and those
 * it built on this configuration's quick settings (a start stopped between the quick stage and the
 * configured precompute). A table built on any other settings is left as it is: a lake built with
 * `REM_STATES=all npm run pipeline` must not shrink because the server started without that setting.
 */
export async function staleTables(
  lake: Lake,
  definitions: PipelineDefinitions,
  config: Config,
): Promise<string[]> {
  const manifest = await readPublishedManifest(lake);
  const quick = firstAnswersConfig(config);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return definitions.tables
    .filter((table) => {
      const published = manifest?.tables[table.name];
      if (published === undefined) return true;
      const configured = declaredSettings(table, config);
      const quickStage = declaredSettings(table, quick);
      return !same(configured, quickStage) && same(published.settings ?? {}, quickStage);
    })
    .map((table) => table.name);
}

/** Whether the published snapshot has none of `tables` (a fresh lake that only served its first stage). */
export async function lacksAll(lake: Lake, tables: readonly AnyLakeTable[]): Promise<boolean> {
  const manifest = await readPublishedManifest(lake);
  return tables.every((table) => manifest?.tables[table.name] === undefined);
}
