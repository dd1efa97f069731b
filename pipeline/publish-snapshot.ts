import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { EventLog } from '../eventlog/event-log.ts';
import type { Logger } from '../lib/log.ts';
import type { Progress } from '../lib/progress.ts';
import type { Config } from '../schemas/config.ts';
import type { AuditFinding, Manifest } from '../schemas/lake.ts';
import { PublishRaceError, swapCurrent, type CurrentPointer } from '../data-lake/current-pointer.ts';
import { localCopy, snapshotCacheDir, snapshotKey, type Lake } from '../data-lake/lake.ts';
import { lakePaths, snapshotDir } from '../data-lake/lake-paths.ts';
import { serializeManifest } from '../data-lake/manifest-file.ts';
import { announcePublished } from '../data-lake/published-snapshots.ts';
import { storeSnapshot, writeSnapshotFiles } from '../data-lake/snapshot-writer.ts';
import type { StagingStore } from '../data-lake/staging-store.ts';
import { inputNames, type AnyLakeTable } from '../transform/tables/lake-table.ts';
import { AuditFailedError } from './audit-failed-error.ts';
import { auditAgainstPublished } from './audit-against-published.ts';
import { buildTables } from '../transform/build-tables.ts';
import type { RebuildPlan, RunLineage } from './lineage.ts';
import type { PipelineStep } from './pipeline-step.ts';
import type { UsableVersion } from './select-source-versions.ts';
import { manifestSource, stagedRecordReader } from './staged-inputs.ts';

export interface PublishInputs {
  lake: Lake;
  /** CURRENT as the run found it: the publish swaps it only if it is still that. */
  current: CurrentPointer;
  /** Every table to build, in dependency order, the quarantine table included. */
  tables: readonly AnyLakeTable[];
  staging: StagingStore;
  chosen: readonly UsableVersion[];
  lineage: RunLineage;
  /** Which tables to build and which to take over from the published snapshot. */
  plan: RebuildPlan;
  codeVersion: string;
  /** The snapshot published now, which becomes the new one's parent. */
  parent: string | null;
  /** Its manifest, when readable: the files of reused tables are its files. */
  published: Manifest | null;
  now: Date;
  progress: Progress;
  logger: Pick<Logger, 'info' | 'warn'>;
  step: (name: PipelineStep) => Promise<void>;
  config: Config;
  /** Opens the run's event log, for tables built through it; opened at most once, closed after the build. */
  openLog: () => Promise<EventLog>;
}

/**
 * What the run's DuckDB may hold in memory before it spills to LAKE_DIR/cache/build-spill. The national REM
 * statistics take more than this in DuckDB, and more again while being sorted into their stored order; with
 * this limit the run stays near it whatever the table's size, at the cost of some disk I/O.
 */
const BUILD_MEMORY_LIMIT = '1GB';

/** What a run wrote: a published snapshot, or one held for review (CURRENT unchanged). */
export interface WrittenSnapshot {
  manifest: Manifest;
  published: boolean;
}

/**
 * Builds every table into an in-memory DuckDB, audits them (an error finding stops here) and compares
 * them with the published snapshot, writes the snapshot beside the published ones and renames it into
 * place; only when no comparison holds it does it swap CURRENT to it (write–audit–publish).
 */
export async function buildAndPublish(inputs: PublishInputs): Promise<WrittenSnapshot> {
  const { lake, chosen, now, progress, logger, step, lineage, plan, published } = inputs;
  const id = snapshotId(now, lineage.fingerprint);
  // This machine's copy of the published snapshot: the files reused tables take over, and audits read.
  const publishedDir =
    published && inputs.parent !== null
      ? snapshotDir((await localCopy(lake, inputs.parent)).workDir, inputs.parent)
      : null;
  const reused =
    published && inputs.parent !== null && publishedDir !== null
      ? reusedTables(plan, published, publishedDir, inputs.parent)
      : [];
  const reusedNames = new Set(reused.map((r) => r.name));
  const spill = lakePaths(lake.workDir).buildSpill;
  // DuckDB creates its temp directory but not the directories above it (found by the national run).
  await mkdir(spill, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: BUILD_MEMORY_LIMIT,
    temp_directory: spill,
  });
  const db = await instance.connect();
  let log: Promise<EventLog> | undefined;
  try {
    const { tables: built, findings: newFindings } = await buildTables({
      db,
      tables: inputs.tables.filter((t) => !reusedNames.has(t.name)),
      records: stagedRecordReader(inputs.staging, chosen),
      progress,
      config: inputs.config,
      logger,
      eventLog: () => (log ??= inputs.openLog()),
    }).finally(async () => {
      if (log) await (await log.catch(() => null))?.close();
    });
    if (newFindings.some((f) => f.severity === 'error')) throw new AuditFailedError(newFindings);
    const comparisons = await auditAgainstPublished(
      db,
      built.map(({ table }) => table),
      published && publishedDir !== null ? { manifest: published, dir: publishedDir } : null,
      lineage,
    );
    // A reused table's findings are those of the snapshot its file comes from (its holds were reviewed).
    const findings = [
      ...newFindings,
      ...comparisons,
      ...(published?.audit ?? []).filter((f) => reusedNames.has(f.table) && f.severity === 'warning'),
    ];
    logWarnings([...newFindings, ...comparisons], published, logger);
    const holds = comparisons.filter((f) => f.severity === 'hold');
    await step('built');

    const rowsBuilt = new Map(built.map(({ table, rows }) => [table.name, rows]));
    const writing = progress.start('write snapshot', { total: inputs.tables.length, unit: 'tables' });
    const written = await writeSnapshotFiles(
      lake,
      db,
      {
        id,
        createdAt: now.toISOString(),
        parent: inputs.parent,
        fingerprint: lineage.fingerprint,
        codeVersion: inputs.codeVersion,
        pipelineCode: lineage.pipelineCode,
        sources: Object.fromEntries(chosen.map((v) => [v.source, manifestSource(v)])),
        audit: findings,
        ...(holds.length > 0 ? { hold: { against: inputs.parent!, findings: holds } } : {}),
        tables: inputs.tables.map((table) => {
          const { fingerprint, code, settings } = lineage.tables.get(table.name)!;
          const reuse = reused.find((r) => r.name === table.name);
          return {
            name: table.name,
            rows: reuse ? reuse.rows : rowsBuilt.get(table.name)!,
            schemaVersion: table.schemaVersion,
            description: table.description,
            inputs: manifestInputs(table),
            fingerprint,
            code,
            settings,
            key: [...table.contract.key],
            ...(table.contract.partition === undefined ? {} : { partition: table.contract.partition }),
            ...(reuse ? { reuse: { file: reuse.file, sha256: reuse.sha256, snapshot: reuse.snapshot } } : {}),
          };
        }),
      },
      () => writing.tick(),
    );
    writing.done();
    const { manifest } = written;
    await step('snapshot-written');
    await storeSnapshot(lake, written);
    await step('snapshot-promoted');
    if (holds.length > 0) {
      logger.warn({ snapshot: id, against: inputs.parent, holds }, `snapshot ${id} held for review`);
      return { manifest, published: false };
    }
    try {
      await swapCurrent(lake, id, inputs.current);
    } catch (error) {
      if (error instanceof PublishRaceError) await holdAfterLostRace(lake, manifest, error);
      throw error;
    }
    await step('published');
    await announce(inputs, id);
    logger.info(
      { snapshot: id, parent: inputs.parent, tables: Object.keys(manifest.tables).length },
      `published snapshot ${id}`,
    );
    return { manifest, published: true };
  } finally {
    db.closeSync();
    instance.closeSync();
    await rm(spill, { recursive: true, force: true });
  }
}

/**
 * Audit warnings go to the manifest; the log says in one line how many there are, and warns only of those
 * the published snapshot's same table did not have (a change someone should look at), each in a line: the
 * findings a snapshot always has (the default data's known gaps) are not news at every run.
 */
function logWarnings(
  findings: readonly AuditFinding[],
  published: Manifest | null,
  logger: Pick<Logger, 'info' | 'warn'>,
): void {
  const warnings = findings.filter((f) => f.severity === 'warning');
  if (warnings.length === 0) return;
  // A table the published snapshot lacks is new as a whole: its findings are a first look, not a change.
  const known = new Set((published?.audit ?? []).map(findingName));
  const news = warnings.filter((f) => published?.tables[f.table] !== undefined && !known.has(findingName(f)));
  for (const warning of news) {
    logger.warn(
      { finding: warning },
      `new audit warning: table ${warning.table}, ${warning.check}: ${warning.message}`,
    );
  }
  logger.info(
    { warnings: warnings.map(findingName) },
    `${warnings.length} audit warning${warnings.length === 1 ? '' : 's'} recorded in the snapshot's manifest ` +
      `(${news.length} new since the published snapshot; npm run lake -- show lists them)`,
  );
}

const findingName = (f: AuditFinding) => `${f.table}/${f.check}`;

/** What the manifest says a table reads (topics only for the tables computed through the event log). */
function manifestInputs(table: AnyLakeTable): Manifest['tables'][string]['inputs'] {
  const { records, tables, topics } = inputNames(table);
  return { records, tables, ...(topics.length > 0 ? { topics } : {}) };
}

/** The published snapshot's files of the tables the plan reuses, with their row counts and checksums. */
function reusedTables(
  plan: RebuildPlan,
  published: Manifest,
  publishedDir: string,
  snapshot: string,
): { name: string; file: string; rows: number; sha256: string; snapshot: string }[] {
  return [...plan.reuse].map((name) => {
    const entry = published.tables[name]!;
    return {
      name,
      file: path.join(publishedDir, entry.file),
      rows: entry.rows,
      sha256: entry.sha256,
      snapshot,
    };
  });
}

/**
 * Tells the replicas following the event log (on Kafka) that CURRENT moved. The publish stands whether or
 * not the announcement gets out: a replica then sees it at its next poll.
 */
async function announce(inputs: PublishInputs, id: string): Promise<void> {
  if (inputs.config.KAFKA_BROKERS === undefined) return;
  try {
    const log = await inputs.openLog();
    try {
      await announcePublished(log, { id, previous: inputs.parent, by: 'pipeline' });
    } finally {
      await log.close();
    }
  } catch (err) {
    inputs.logger.warn(
      { err },
      `publish of ${id} not announced on the event log: replicas see it at their next poll`,
    );
  }
}

/**
 * A snapshot whose publish lost the race stays in the lake, held: it was audited against a snapshot that is
 * no longer CURRENT, so `lake publish` refuses it (run the pipeline again) and nothing of it is lost.
 */
async function holdAfterLostRace(lake: Lake, manifest: Manifest, race: PublishRaceError): Promise<void> {
  const held: Manifest = {
    ...manifest,
    hold: {
      against: manifest.parent ?? '(none)',
      findings: [
        {
          table: '(snapshot)',
          check: 'publish-race',
          severity: 'hold',
          message: `another run published ${race.winner ?? 'nothing'} while this one was building`,
        },
      ],
    },
  };
  await lake.store.put(snapshotKey(manifest.id), serializeManifest(held));
  // This machine's copy of a remote lake's snapshot must not say otherwise: it is fetched again if read.
  if (lake.store.localPath(snapshotKey(manifest.id)) === null) {
    await rm(path.join(snapshotCacheDir(lake), 'snapshots', manifest.id), { recursive: true, force: true });
  }
}

/** Sortable by creation time, and unique per run: e.g. 20261121T161654123Z-3f2a9c1e. */
function snapshotId(now: Date, fingerprint: string): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${fingerprint.slice(0, 8)}`;
}
