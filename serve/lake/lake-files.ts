import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PARQUET_TYPE, type LakeListing } from '../../schemas/lake-api.ts';
import type { SnapshotReader } from '../../data-lake/snapshot-reader.ts';
import type { Manifest } from '../../schemas/lake.ts';
import type { ServedFile } from '../http/send-file.ts';
import type { SnapshotLoader } from '../snapshot/snapshot-loader.ts';

/** A snapshot's tables as the lake routes serve them: the listing, and each manifest table's file. */
export interface LakeFiles {
  listing: LakeListing;
  /** By table name; only the tables the manifest names, so no other file of the directory is reachable. */
  files: ReadonlyMap<string, ServedFile>;
}

/** Where a snapshot's table file is served, pinned to the snapshot: its bytes never change. */
export const pinnedLakeFileUrl = (snapshotId: string, table: string) =>
  `/api/v1/lake/snapshots/${encodeURIComponent(snapshotId)}/${encodeURIComponent(table)}.parquet`;

/**
 * A table file's ETag: the snapshot's id (which snapshot's bytes a client holds) and the start of the
 * file's SHA-256 (which bytes). Strong, and the same across restarts: a snapshot's files never change.
 */
export const lakeFileEtag = (snapshotId: string, sha256: string) => `"${snapshotId}.${sha256.slice(0, 16)}"`;

/**
 * Reads what the lake routes need of a snapshot when it is loaded: each table's file size and columns
 * (from the Parquet footer, through the snapshot reader's DuckDB), so a request only looks them up.
 */
export async function loadLakeFiles(snapshot: SnapshotReader): Promise<LakeFiles> {
  const { manifest } = snapshot;
  const files = new Map<string, ServedFile>();
  const tables: LakeListing['tables'] = [];
  for (const [name, entry] of Object.entries(manifest.tables).sort(([a], [b]) => a.localeCompare(b))) {
    const file = await servedTableFile(snapshot.id, snapshot.dir, manifest, name);
    files.set(name, file);
    tables.push({
      name,
      description: entry.description,
      rows: entry.rows,
      bytes: file.size,
      sha256: entry.sha256,
      url: pinnedLakeFileUrl(snapshot.id, name),
      columns: await snapshot.columns(name),
    });
  }
  return { listing: { snapshot: { id: snapshot.id, created_at: manifest.createdAt }, tables }, files };
}

/** A table of a snapshot as the file routes send it (its size read now: the file never changes). */
export async function servedTableFile(
  snapshotId: string,
  dir: string,
  manifest: Manifest,
  table: string,
): Promise<ServedFile> {
  const entry = manifest.tables[table]!;
  // The writer names files after their tables; anything else in a manifest is not ours to serve.
  if (path.basename(entry.file) !== entry.file) {
    throw new Error(`snapshot ${snapshotId}: table ${table}'s file "${entry.file}" is not in its directory`);
  }
  const file = path.join(dir, entry.file);
  return {
    path: file,
    size: (await stat(file)).size,
    etag: lakeFileEtag(snapshotId, entry.sha256),
    lastModified: new Date(manifest.createdAt).toUTCString(),
    type: PARQUET_TYPE,
    downloadName: entry.file,
  };
}

export const lakeFilesLoader: SnapshotLoader<LakeFiles> = {
  name: 'lake',
  // None required: the lake routes serve whatever tables the snapshot has.
  tables: [],
  load: loadLakeFiles,
};
