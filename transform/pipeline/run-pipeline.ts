import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { EventLog } from '../../lib/eventlog/event-log.ts';
import { openEventLog } from '../../lib/eventlog/open-event-log.ts';
import { ingestSources } from '../../ingest/ingest-job.ts';
import type { Logger } from '../../lib/log.ts';
import { createProgress, type Progress } from '../../lib/progress.ts';
import type { Config } from '../../schemas/config.ts';
import type { Manifest } from '../../schemas/lake.ts';
import type { PipelineCatalog } from '../catalog.ts';
import { readCurrent } from '../../data-lake/current-pointer.ts';
import { acquireLakeLock } from '../../data-lake/lake-lock.ts';
import { lakePaths, snapshotDir } from '../../data-lake/lake-paths.ts';
import { readManifest } from '../../data-lake/manifest-file.ts';
import { removeRunLeftovers } from '../../data-lake/snapshot-store.ts';
import { StagingStore, type StagedVersion } from '../../data-lake/staging-store.ts';
import type { AnyLakeTable } from '../tables/lake-table.ts';
import { resolveCodeVersion } from './code-version.ts';
import { describeRebuild, planRebuild, runLineage } from './lineage.ts';
import type { PipelineStep } from './pipeline-step.ts';
import { quarantineTable } from './quarantine-table.ts';
import { buildAndPublish } from './publish-snapshot.ts';
import { stagedQuarantineRows } from './staged-inputs.ts';
import { selectSourceVersions, type UsableVersion } from './select-source-versions.ts';
import { orderTables } from './table-order.ts';
import { consumeToStaging, type ConsumeSummary } from './transform-consumer.ts';

export interface RunPipelineOptions {
  config: Config;
  logger: Logger;
  catalog: PipelineCatalog;
  /** Opens the event log; by default the configured one (Kafka, or the embedded log in LAKE_DIR/log). */
  openLog?: (config: Config, logger: Logger) => Promise<EventLog>;
  progress?: Progress;
  /** How long to wait for another run to finish before refusing (default: refuse at once). */
  lockWaitMs?: number;
  /** Overrides the git commit / package version recorded in the manifest and the fingerprint. */
  codeVersion?: string;
  now?: () => Date;
  /** Called as the run passes each step (see PipelineStep). */
  onStep?: (step: PipelineStep) => Promise<void> | void;
  /** Called with what the run staged once staging has caught up with the log (its metrics count it). */
  onStaged?: (summary: ConsumeSummary) => void;
}

export type PipelineResult =
  | {
      status: 'published';
      snapshotId: string;
      previous: string | null;
      manifest: Manifest;
      /** What changed since the previous snapshot and what was rebuilt, in one line. */
      rebuild: string;
    }
  | { status: 'unchanged'; snapshotId: string };

export class IncompleteSourcesError extends Error {
  constructor(
    readonly sources: string[],
    notices: string[],
  ) {
    super(
      `no complete version of source${sources.length === 1 ? '' : 's'} ${sources.join(', ')} has been staged` +
        (notices.length > 0 ? `: ${notices.join('; ')}` : ''),
    );
    this.name = 'IncompleteSourcesError';
  }
}

/**
 * One pipeline run: ingest every source onto the event log, stage and validate the new records, then
 * build, audit and publish a snapshot if anything it is built from changed. Only the final rename of
 * CURRENT publishes, so a run that fails or dies anywhere leaves what is served as it was.
 */
export async function runPipeline(options: RunPipelineOptions): Promise<PipelineResult> {
  const { config, logger, catalog } = options;
  const lakeDir = config.LAKE_DIR;
  const paths = lakePaths(lakeDir);
  const progress = options.progress ?? createProgress({ logger });
  const step = async (name: PipelineStep) => {
    logger.debug({ step: name }, `pipeline step ${name}`);
    await options.onStep?.(name);
  };
  const tables = orderTables(
    catalog.tables,
    catalog.recordSchemas.map((schema) => schema.name),
  );
  await mkdir(paths.snapshots, { recursive: true });
  await mkdir(paths.staging, { recursive: true });

  const lock = await acquireLakeLock(lakeDir, { purpose: 'pipeline run', waitMs: options.lockWaitMs ?? 0 });
  try {
    await step('locked');
    const staging = new StagingStore(paths.staging);
    const leftovers = await removeRunLeftovers(lakeDir);
    await staging.removeLeftovers();
    if (leftovers.length > 0) logger.info({ leftovers }, 'removed leftovers of an interrupted run');

    await stageSources(options, staging, progress, step);
    const selection = selectSourceVersions(
      await staging.versions(),
      catalog.sources.map((source) => source.name),
    );
    for (const notice of selection.notices) logger.warn(notice);
    if (selection.missing.length > 0) throw new IncompleteSourcesError(selection.missing, selection.notices);

    const chosen = [...selection.chosen.values()].sort((a, b) => compare(a.source, b.source));
    const codeVersion = options.codeVersion ?? (await resolveCodeVersion());
    const quarantine = quarantineTable(
      () => stagedQuarantineRows(staging, chosen),
      [...catalog.recordSchemas].sort((a, b) => compare(a.name, b.name)),
    );
    const allTables: AnyLakeTable[] = [...tables, quarantine];
    const lineage = runLineage(allTables, chosen, config);

    const current = await readCurrent(lakeDir);
    const currentManifest =
      current === null ? null : await readManifest(snapshotDir(lakeDir, current)).catch(() => null);
    if (current !== null && currentManifest?.fingerprint === lineage.fingerprint) {
      logger.info({ snapshot: current }, `no changes: snapshot ${current} is built from the same inputs`);
      return { status: 'unchanged', snapshotId: current };
    }
    const plan = planRebuild(allTables, lineage, currentManifest);
    const rebuild = describeRebuild(allTables, lineage, plan, chosen, currentManifest);
    logger.info({ changed: plan.changed, build: [...plan.build], reuse: [...plan.reuse] }, rebuild);

    const manifest = await buildAndPublish({
      lakeDir,
      tables: allTables,
      lineage,
      plan,
      staging,
      chosen,
      codeVersion,
      parent: current,
      published: currentManifest,
      now: (options.now ?? (() => new Date()))(),
      progress,
      logger,
      step,
      config,
      openLog: () => (options.openLog ?? openEventLog)(config, logger),
    });
    await pruneSupersededVersions(staging, chosen);
    return { status: 'published', snapshotId: manifest.id, previous: current, manifest, rebuild };
  } finally {
    await lock.release();
  }
}

/**
 * Catches staging up with the log, ingests the sources (skipping those whose version staging already
 * has), then stages what ingest published. Catching up first is what lets ingest know the last versions.
 */
async function stageSources(
  options: RunPipelineOptions,
  staging: StagingStore,
  progress: Progress,
  step: (name: PipelineStep) => Promise<void>,
): Promise<void> {
  const { config, logger, catalog } = options;
  const log = await (options.openLog ?? openEventLog)(config, logger);
  try {
    const consume = async () => {
      const summary = await consumeToStaging({
        log,
        staging,
        recordSchemas: catalog.recordSchemas,
        logger,
        progress,
        afterBatchStaged: () => step('batch-staged'),
      });
      await staging.compact();
      return summary;
    };
    await consume();
    await ingestSources({
      log,
      sources: catalog.sources,
      parsers: catalog.parsers,
      recordSchemas: catalog.recordSchemas,
      lastVersions: lastAnnouncedVersions(await staging.versions()),
      progress,
      logger,
      cacheDir: path.join(lakePaths(config.LAKE_DIR).root, 'cache', 'http'),
    });
    await step('ingested');
    const summary = await consume();
    logger.info({ ...summary }, `staged ${summary.accepted} records, quarantined ${summary.quarantined}`);
    options.onStaged?.(summary);
    await step('staged');
  } finally {
    await log.close();
  }
}

/** Per source, the version of its latest source-version event on the log. */
function lastAnnouncedVersions(staged: readonly StagedVersion[]): Record<string, string> {
  const latest = new Map<string, StagedVersion>();
  for (const version of staged) {
    if (version.eventOffset === null) continue;
    const seen = latest.get(version.source);
    if (seen === undefined || seen.eventOffset! < version.eventOffset) latest.set(version.source, version);
  }
  return Object.fromEntries([...latest].map(([source, v]) => [source, v.version]));
}

/** Staged versions older than the ones just published are never needed again (the log still has them). */
async function pruneSupersededVersions(
  staging: StagingStore,
  chosen: readonly UsableVersion[],
): Promise<void> {
  const used = new Map(chosen.map((v) => [v.source, v.eventOffset]));
  for (const version of await staging.versions()) {
    const usedOffset = used.get(version.source);
    if (usedOffset !== undefined && version.eventOffset !== null && version.eventOffset < usedOffset) {
      await staging.removeVersion(version.source, version.version);
    }
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
