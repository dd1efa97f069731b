import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { EventLog } from '../eventlog/event-log.ts';
import { openEventLog } from '../eventlog/open-event-log.ts';
import {
  DuplicateKeysError,
  IngestError,
  ingestSources,
  type IngestOptions,
  type SourceIngestSummary,
} from '../ingest/ingest-job.ts';
import type { Logger } from '../lib/log.ts';
import { createProgress, type Progress } from '../lib/progress.ts';
import type { Config } from '../schemas/config.ts';
import type { AuditFinding, Manifest, RunRecord } from '../schemas/lake.ts';
import type { PipelineDefinitions } from './definitions.ts';
import { readCurrent, readCurrentPointer } from '../data-lake/current-pointer.ts';
import { openLake, readStoredManifest, type Lake } from '../data-lake/lake.ts';
import { acquireLakeLock } from '../data-lake/lake-lock.ts';
import { lakePaths } from '../data-lake/lake-paths.ts';
import { RunHistory } from '../data-lake/run-history.ts';
import { listSnapshots, removeRunLeftovers } from '../data-lake/snapshot-store.ts';
import {
  readSourceFreshness,
  recordSourceReads,
  staleSources,
  type SourceRead,
} from '../data-lake/source-freshness.ts';
import { StagingStore, type StagedVersion } from '../data-lake/staging-store.ts';
import type { AnyLakeTable } from '../transform/tables/lake-table.ts';
import { AuditFailedError } from './audit-failed-error.ts';
import { resolveCodeVersion } from './code-version.ts';
import { describeRebuild, planRebuild, runLineage } from './lineage.ts';
import type { PipelineStep } from './pipeline-step.ts';
import { quarantineTable } from '../transform/quarantine-table.ts';
import { buildAndPublish } from './publish-snapshot.ts';
import { stagedQuarantineRows } from './staged-inputs.ts';
import {
  selectSourceVersions,
  type FallbackVersion,
  type RejectedVersion,
  type UsableVersion,
} from './select-source-versions.ts';
import { orderTables } from './table-order.ts';
import { consumeToStaging, type ConsumeSummary } from '../transform/transform-consumer.ts';

export interface RunPipelineOptions {
  config: Config;
  logger: Logger;
  definitions: PipelineDefinitions;
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
  /** What started the run, for its record in the run history (default: manual). */
  trigger?: RunRecord['trigger'];
}

export type PipelineResult = (
  | {
      status: 'published';
      snapshotId: string;
      previous: string | null;
      manifest: Manifest;
      /** What changed since the previous snapshot and what was rebuilt, in one line. */
      rebuild: string;
    }
  | {
      /** Written but not published: its comparison with CURRENT found anomalies to review (manifest.hold). */
      status: 'held';
      snapshotId: string;
      manifest: Manifest & { hold: NonNullable<Manifest['hold']> };
      /** What changed and what was rebuilt; null when an earlier run already wrote this held snapshot. */
      rebuild: string | null;
    }
  | { status: 'unchanged'; snapshotId: string }
) & {
  /** Published versions the run built from in place of its own rejected ones (SOURCE_FALLBACK=published). */
  fallbacks?: FallbackVersion[];
};

/** The version this run read of some source cannot be built from, and nothing may stand in for it. */
export class SourcesRejectedError extends Error {
  constructor(readonly rejected: RejectedVersion[]) {
    super(rejected.map((r) => `source ${r.source}: ${r.reason}`).join('; '));
    this.name = 'SourcesRejectedError';
  }
}

/**
 * One pipeline run: ingest every source onto the event log, stage and validate the new records, then
 * build, audit and write a snapshot if anything it is built from changed, and publish it unless its
 * comparison with the published snapshot holds it for review. Only the final rename of CURRENT
 * publishes, so a run that fails, is held or dies anywhere leaves what is served as it was. Every run,
 * failed ones included, leaves a record in the lake's run history.
 */
export async function runPipeline(options: RunPipelineOptions): Promise<PipelineResult> {
  const lake = openLake(options.config);
  const now = options.now ?? (() => new Date());
  await mkdir(lakePaths(lake.workDir).staging, { recursive: true });
  const history = await RunHistory.start(lake, {
    trigger: options.trigger ?? 'manual',
    previous: await readCurrent(lake).catch(() => null),
    now: now(),
  });
  try {
    const result = await runLocked(options, lake, history);
    await history.finish(result.status, {
      snapshot: result.snapshotId,
      detail: resultDetail(result),
      now: now(),
    });
    return result;
  } catch (error) {
    await history.finish('failed', { detail: (error as Error).message, now: now() }).catch(() => undefined);
    throw error;
  }
}

const resultDetail = (result: PipelineResult): string =>
  result.status === 'unchanged'
    ? `nothing changed: ${result.snapshotId} is built from the same inputs`
    : result.status === 'held'
      ? `held ${result.snapshotId} for review against ${result.manifest.hold.against}`
      : `published ${result.snapshotId} (previous: ${result.previous ?? 'none'})`;

async function runLocked(
  options: RunPipelineOptions,
  lake: Lake,
  history: RunHistory,
): Promise<PipelineResult> {
  const { config, logger, definitions } = options;
  const paths = lakePaths(lake.workDir);
  const progress = options.progress ?? createProgress({ logger });
  const step = async (name: PipelineStep) => {
    logger.debug({ step: name }, `pipeline step ${name}`);
    await options.onStep?.(name);
  };
  const tables = orderTables(
    definitions.tables,
    definitions.recordSchemas.map((schema) => schema.name),
  );

  const lock = await acquireLakeLock(lake.workDir, {
    purpose: 'pipeline run',
    waitMs: options.lockWaitMs ?? 0,
  });
  // The versions this run brought that the published snapshot was not built from: an audit refuses them.
  let changedSources: UsableVersion[] = [];
  try {
    await step('locked');
    const staging = new StagingStore(paths.staging);
    const leftovers = await removeRunLeftovers(lake);
    await staging.removeLeftovers();
    if (leftovers.length > 0) logger.info({ leftovers }, 'removed leftovers of an interrupted run');

    // What is published as the run starts: a publish at the end swaps CURRENT only if it is still this.
    const pointer = await readCurrentPointer(lake);
    const current = pointer.id;
    const currentManifest =
      current === null ? null : await readStoredManifest(lake, current).catch(() => null);
    const fallback =
      config.SOURCE_FALLBACK === 'published' && currentManifest !== null
        ? Object.fromEntries(Object.entries(currentManifest.sources).map(([name, s]) => [name, s.version]))
        : null;
    const read = await stageSources(options, staging, progress, step, history);
    const selection = selectSourceVersions({ staged: await staging.versions(), read, fallback });
    const rejectedSources = [
      ...selection.rejected,
      ...selection.fallbacks.map((f) => ({ ...f.instead, fallback: f.version })),
    ];
    if (rejectedSources.length > 0) await history.update({ rejectedSources });
    if (selection.rejected.length > 0) throw new SourcesRejectedError(selection.rejected);
    for (const f of selection.fallbacks) {
      logger.warn(
        { source: f.source, version: f.version, rejected: f.instead.version },
        `source ${f.source}: ${f.instead.reason}; building from the published version ${f.version} instead ` +
          '(SOURCE_FALLBACK=published)',
      );
    }
    const fallbacks = selection.fallbacks.length > 0 ? { fallbacks: selection.fallbacks } : {};

    const chosen = [...selection.chosen.values()].sort((a, b) => compare(a.source, b.source));
    const codeVersion = options.codeVersion ?? (await resolveCodeVersion());
    const quarantine = quarantineTable(
      () => stagedQuarantineRows(staging, chosen),
      [...definitions.recordSchemas].sort((a, b) => compare(a.name, b.name)),
    );
    const allTables: AnyLakeTable[] = [...tables, quarantine];
    const lineage = runLineage(allTables, chosen, config);

    changedSources = chosen.filter((v) => currentManifest?.sources[v.source]?.version !== v.version);
    await history.update({
      sources: chosen.map((v) => ({
        source: v.source,
        version: v.version,
        changed: changedSources.includes(v),
      })),
    });
    if (current !== null && currentManifest?.fingerprint === lineage.fingerprint) {
      logger.info({ snapshot: current }, `no changes: snapshot ${current} is built from the same inputs`);
      return { status: 'unchanged', snapshotId: current, ...fallbacks };
    }
    // The same inputs were already written and held against this CURRENT: it still waits for review.
    const stillHeld = await heldSnapshotOf(lake, lineage.fingerprint, current);
    if (stillHeld !== null) {
      logger.warn({ snapshot: stillHeld.id }, `snapshot ${stillHeld.id} is still held for review`);
      await history.update(auditRecord(stillHeld));
      return { status: 'held', snapshotId: stillHeld.id, manifest: stillHeld, rebuild: null, ...fallbacks };
    }
    const plan = planRebuild(allTables, lineage, currentManifest);
    const rebuild = describeRebuild(allTables, lineage, plan, chosen, currentManifest);
    logger.info({ changed: plan.changed, build: [...plan.build], reuse: [...plan.reuse] }, rebuild);
    await history.update({ tables: { rebuilt: [...plan.build], reused: [...plan.reuse] } });

    const { manifest, published } = await buildAndPublish({
      lake,
      current: pointer,
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
    await history.update(auditRecord(manifest));
    if (!published) {
      return { status: 'held', snapshotId: manifest.id, manifest: withHold(manifest), rebuild, ...fallbacks };
    }
    await pruneSupersededVersions(staging, chosen);
    return {
      status: 'published',
      snapshotId: manifest.id,
      previous: current,
      manifest,
      rebuild,
      ...fallbacks,
    };
  } catch (error) {
    if (error instanceof AuditFailedError) {
      await history.update({
        findings: countFindings(error.findings),
        rejectedSources: changedSources.map(({ source, version }) => ({
          source,
          version,
          reason: `refused with the run: ${error.message}`,
        })),
      });
    }
    if (error instanceof IngestError) {
      await history.update({
        rejectedSources: [
          {
            source: error.source,
            version: error instanceof DuplicateKeysError ? error.version : null,
            reason: error.message,
          },
        ],
      });
    }
    throw error;
  } finally {
    await lock.release();
  }
}

/** A snapshot's findings as its run's record keeps them: counts by severity, and the holds. */
function auditRecord(manifest: Manifest): Pick<RunRecord, 'findings' | 'holds'> {
  return {
    findings: countFindings(manifest.audit),
    ...(manifest.hold ? { holds: manifest.hold.findings } : {}),
  };
}

const countFindings = (findings: readonly AuditFinding[]): RunRecord['findings'] => ({
  error: findings.filter((f) => f.severity === 'error').length,
  hold: findings.filter((f) => f.severity === 'hold').length,
  warning: findings.filter((f) => f.severity === 'warning').length,
});

/**
 * Catches staging up with the log, ingests the sources (skipping those whose version staging already
 * has), then stages what ingest published. Catching up first is what lets ingest know the last versions.
 * Returns, per source, the version this run read, or why it could not read one.
 */
async function stageSources(
  options: RunPipelineOptions,
  staging: StagingStore,
  progress: Progress,
  step: (name: PipelineStep) => Promise<void>,
  history: RunHistory,
): Promise<Map<string, { version: string } | RejectedVersion>> {
  const { config, logger, definitions } = options;
  const log = await (options.openLog ?? openEventLog)(config, logger);
  try {
    const consume = async () => {
      const summary = await consumeToStaging({
        log,
        staging,
        recordSchemas: definitions.recordSchemas,
        logger,
        progress,
        afterBatchStaged: () => step('batch-staged'),
      });
      await staging.compact();
      return summary;
    };
    await consume();
    const read = await ingestTracked(options, history, {
      log,
      sources: definitions.sources,
      parsers: definitions.parsers,
      recordSchemas: definitions.recordSchemas,
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
    return read;
  } finally {
    await log.close();
  }
}

/** The held snapshot with these inputs, compared with `current`, if a run already wrote one. */
async function heldSnapshotOf(
  lake: Lake,
  fingerprint: string,
  current: string | null,
): Promise<(Manifest & { hold: NonNullable<Manifest['hold']> }) | null> {
  for (const summary of await listSnapshots(lake)) {
    if (summary.status !== 'held' || summary.fingerprint !== fingerprint) continue;
    const manifest = await readStoredManifest(lake, summary.id);
    if (manifest?.hold?.against === current) return withHold(manifest);
  }
  return null;
}

function withHold(manifest: Manifest): Manifest & { hold: NonNullable<Manifest['hold']> } {
  if (manifest.hold === undefined) throw new Error(`snapshot ${manifest.id} is not held`);
  return manifest as Manifest & { hold: NonNullable<Manifest['hold']> };
}

/**
 * Ingests, recording each source's read (or the one that failed) in the lake's source freshness, and the
 * sources past their age in the run's record and the log. A source that cannot be read fails the run,
 * unless SOURCE_FALLBACK lets it be left out (and then built from its published version).
 */
async function ingestTracked(
  options: RunPipelineOptions,
  history: RunHistory,
  ingest: IngestOptions,
): Promise<Map<string, { version: string } | RejectedVersion>> {
  const { config, logger } = options;
  const now = (options.now ?? (() => new Date()))();
  const reads: SourceRead[] = [];
  const read = new Map<string, { version: string } | RejectedVersion>();
  const rejected = (error: IngestError) => {
    reads.push({ source: error.source, failure: error.message });
    read.set(error.source, {
      source: error.source,
      version: error instanceof DuplicateKeysError ? error.version : null,
      reason: error.message,
    });
  };
  let summaries: SourceIngestSummary[];
  try {
    summaries = await ingestSources({
      ...ingest,
      onSourceRead: (source, contentHash) =>
        reads.push({
          source: source.name,
          contentHash,
          ...(source.staleAfterDays === undefined ? {} : { staleAfterDays: source.staleAfterDays }),
        }),
      ...(config.SOURCE_FALLBACK === 'published' ? { onRejected: rejected } : {}),
    });
  } catch (error) {
    if (error instanceof IngestError) reads.push({ source: error.source, failure: error.message });
    throw error;
  } finally {
    await recordSourceReads(openLake(config), reads, now);
  }
  for (const summary of summaries) read.set(summary.source, { version: summary.version });
  const collapsedKeys = summaries.flatMap((summary) =>
    summary.collapsed.map(({ differingFields: _, ...group }) => ({ source: summary.source, ...group })),
  );
  const stale = staleSources(
    await readSourceFreshness(openLake(config)),
    config.SOURCE_STALE_AFTER_DAYS,
    now,
  );
  for (const source of stale) {
    logger.warn(
      { source: source.source, reason: source.reason, since: source.since },
      source.reason === 'unchanged'
        ? `source ${source.source} has not changed for ${source.days} days (since ${source.since}): is its feed still updated?`
        : `source ${source.source} has not been read successfully for ${source.days} days (since ${source.since})`,
    );
  }
  await history.update({
    staleSources: stale.map(({ source, reason, days }) => ({ source, reason, days })),
    ...(collapsedKeys.length > 0 ? { collapsedKeys } : {}),
  });
  return read;
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
