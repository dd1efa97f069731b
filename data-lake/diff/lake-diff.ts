import { readCurrent } from '../current-pointer.ts';
import { localCopy, type Lake } from '../lake.ts';
import { snapshotDir } from '../lake-paths.ts';
import { readManifest } from '../manifest-file.ts';
import { withMemoryDb } from '../memory-db.ts';
import { listSnapshots, UnknownSnapshotError, type SnapshotSummary } from '../snapshot-store.ts';
import { LAKE_TABLES } from '../tables/index.ts';
import type { TableContract } from '../tables/table-contract.ts';
import { silentProgress, type Progress } from '../../lib/progress.ts';
import { incentiveChanges, type IncentiveChanges } from './incentive-changes.ts';
import { diffSnapshots, type DiffSide, type TableDiff } from './snapshot-diff.ts';

/** Two snapshots of the lake compared: what `snapshot` adds, removes and changes against `against`. */
export interface LakeDiff {
  snapshot: { id: string; status: SnapshotSummary['status'] };
  against: { id: string; status: SnapshotSummary['status'] };
  tables: TableDiff[];
  /** Incentives and programs that appeared, disappeared or changed amount; null when neither table changed. */
  incentives: IncentiveChanges | null;
}

/** Nothing to compare: the lake has no snapshot besides the published one. */
export class NothingToDiffError extends Error {
  constructor(current: string | null) {
    super(
      current === null
        ? 'nothing is published yet, so there is nothing to compare with: name two snapshots (npm run lake -- list)'
        : `nothing to compare ${current} with: name two snapshots (npm run lake -- list)`,
    );
    this.name = 'NothingToDiffError';
  }
}

/**
 * `snapshot` against `against` (default: CURRENT). Without `snapshot`: the newest snapshot written after
 * CURRENT (a held one) against CURRENT, or, when there is none, CURRENT against the snapshot it replaced.
 */
export async function diffLake(
  lake: Lake,
  snapshot?: string,
  against?: string,
  progress: Progress = silentProgress,
): Promise<LakeDiff> {
  const summaries = await listSnapshots(lake);
  const current = await readCurrent(lake);
  const published = summaries.find((s) => s.status === 'current');
  const newer = summaries.find((s) => published !== undefined && s.createdAt > published.createdAt);
  const newId = snapshot ?? newer?.id ?? published?.id;
  const baseId =
    against ?? (snapshot === undefined && newer === undefined ? (published?.parent ?? null) : current);
  if (newId === undefined || baseId === null || newId === baseId) throw new NothingToDiffError(current);
  const [after, before] = [await side(lake, summaries, newId), await side(lake, summaries, baseId)];
  // A snapshot's manifest says how its tables are keyed and partitioned; older ones, as the code declares.
  const declared = new Map(LAKE_TABLES.map((table) => [table.name, table.contract]));
  const contractOf = (table: string): TableContract | undefined => {
    const entry = after.manifest.tables[table] ?? before.manifest.tables[table];
    if (entry?.key === undefined) return declared.get(table);
    return {
      key: entry.key,
      maxDrop: 1,
      ...(entry.partition === undefined ? {} : { partition: entry.partition }),
    };
  };
  const statusOf = (id: string) => summaries.find((s) => s.id === id)?.status ?? 'superseded';
  return withMemoryDb(async (db) => ({
    snapshot: { id: newId, status: statusOf(newId) },
    against: { id: baseId, status: statusOf(baseId) },
    tables: await diffSnapshots(db, before, after, contractOf, progress),
    incentives: await incentiveChanges(db, before, after),
  }));
}

/** One side of a diff, from this machine's copy of the snapshot. */
async function side(lake: Lake, summaries: readonly SnapshotSummary[], id: string): Promise<DiffSide> {
  if (!summaries.some((s) => s.id === id)) throw new UnknownSnapshotError(id);
  const dir = snapshotDir((await localCopy(lake, id)).workDir, id);
  return { id, dir, manifest: await readManifest(dir) };
}
