import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PARQUET_TYPE, type LakeListing } from '../../schemas/lake-api.ts';
import type { SnapshotReader } from '../../data-lake/snapshot-reader.ts';
import type { ServedFile } from '../http/send-file.ts';
import type { ServingModule } from '../snapshot/serving-module.ts';

/** A snapshot's tables as the lake routes serve them: the listing, and each manifest table's file. */
export interface LakeFiles {
  listing: LakeListing;
  /** By table name; only the tables the manifest names, so no other file of the directory is reachable. */
  files: ReadonlyMap<string, ServedFile>;
}

/** Where a table's Parquet file is served. */
export const lakeFileUrl = (table: string) => `/api/v1/lake/${encodeURIComponent(table)}.parquet`;

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
  const lastModified = new Date(manifest.createdAt).toUTCString();
  const files = new Map<string, ServedFile>();
  const tables: LakeListing['tables'] = [];
  for (const [name, entry] of Object.entries(manifest.tables).sort(([a], [b]) => a.localeCompare(b))) {
    // The writer names files after their tables; anything else in a manifest is not ours to serve.
    if (path.basename(entry.file) !== entry.file) {
      throw new Error(
        `snapshot ${snapshot.id}: table ${name}'s file "${entry.file}" is not in its directory`,
      );
    }
    const file = path.join(snapshot.dir, entry.file);
    const { size } = await stat(file);
    files.set(name, {
      path: file,
      size,
      etag: lakeFileEtag(snapshot.id, entry.sha256),
      lastModified,
      type: PARQUET_TYPE,
      downloadName: entry.file,
    });
    tables.push({
      name,
      description: entry.description,
      rows: entry.rows,
      bytes: size,
      sha256: entry.sha256,
      url: lakeFileUrl(name),
      columns: await snapshot.columns(name),
    });
  }
  return { listing: { snapshot: { id: snapshot.id, created_at: manifest.createdAt }, tables }, files };
}

export const lakeServingModule: ServingModule<LakeFiles> = {
  name: 'lake',
  // None required: the lake routes serve whatever tables the snapshot has.
  tables: [],
  load: loadLakeFiles,
};
