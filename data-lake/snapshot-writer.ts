import { copyFile, link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Manifest } from '../schemas/lake.ts';
import { fsyncPath, fsyncTree } from '../lib/fs/durable-file.ts';
import { assertSnapshotId, lakePaths } from './lake-paths.ts';
import { snapshotCacheDir, snapshotKey, type Lake } from './lake.ts';
import { MANIFEST_FILE, serializeManifest } from './manifest-file.ts';
import { exportParquet, sha256OfFile } from './parquet-file.ts';

/**
 * One table of a snapshot being written: a DuckDB table of that name holds its rows, or, when `reuse` is
 * set, an earlier snapshot's file (immutable, so it is linked, not copied) already holds them.
 */
export type SnapshotTableDraft = Omit<Manifest['tables'][string], 'file' | 'sha256'> & {
  name: string;
  /** The local file of the earlier snapshot `snapshot` that holds this table's rows. */
  reuse?: { file: string; sha256: string; snapshot: string };
};

/** Everything a manifest says except what writing the files reveals (file names and checksums). */
export type SnapshotDraft = Omit<Manifest, 'tables'> & { tables: SnapshotTableDraft[] };

/** A snapshot written on this machine, not yet in the lake's store. */
export interface BuiltSnapshot {
  manifest: Manifest;
  /** Its local directory (the files and the manifest). */
  dir: string;
  /** Tables whose file is an earlier snapshot's, by table name: that snapshot's id. */
  reusedFrom: Map<string, string>;
}

/**
 * Writes every table to `<LAKE_DIR>/cache/build/<id>/<table>.parquet`, then the manifest, and flushes them
 * all to disk. Nothing reads that directory: a crash here leaves only a leftover to clean up.
 */
export async function writeSnapshotFiles(
  lake: Lake,
  db: DuckDBConnection,
  draft: SnapshotDraft,
  onTableWritten?: (table: string) => void,
): Promise<BuiltSnapshot> {
  const dir = path.join(lakePaths(lake.workDir).building, assertSnapshotId(draft.id));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tables: Manifest['tables'] = {};
  const reusedFrom = new Map<string, string>();
  for (const { name, reuse, ...entry } of draft.tables) {
    const file = `${name}.parquet`;
    const target = path.join(dir, file);
    if (reuse) {
      await linkOrCopy(reuse.file, target);
      reusedFrom.set(name, reuse.snapshot);
    } else await exportParquet(db, name, target);
    tables[name] = { file, sha256: reuse ? reuse.sha256 : await sha256OfFile(target), ...entry };
    onTableWritten?.(name);
  }
  const manifest: Manifest = { ...draft, tables };
  await writeFile(path.join(dir, MANIFEST_FILE), serializeManifest(manifest));
  await fsyncTree(dir);
  return { manifest, dir, reusedFrom };
}

/** A hard link where the file system allows one (same device), else a copy. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}

/**
 * Puts a written snapshot into the lake's store so that it appears whole or not at all. In a directory
 * lake: one rename into `snapshots/`. In a remote store: every table file as an object (an unchanged
 * table copied within the store from the snapshot it comes from), then the manifest, which is what makes
 * a snapshot listed; the local files then stay in the cache, as this machine's copy of the snapshot.
 */
export async function storeSnapshot(lake: Lake, built: BuiltSnapshot): Promise<void> {
  const { id } = built.manifest;
  const inPlace = lake.store.localPath(snapshotKey(id));
  const local = inPlace === null ? path.join(snapshotCacheDir(lake), 'snapshots', id) : path.dirname(inPlace);
  if (inPlace === null) {
    for (const [name, entry] of Object.entries(built.manifest.tables)) {
      const from = built.reusedFrom.get(name);
      if (from === undefined)
        await lake.store.upload(snapshotKey(id, entry.file), path.join(built.dir, entry.file));
      else await lake.store.copy(snapshotKey(from, entry.file), snapshotKey(id, entry.file));
    }
    await lake.store.put(snapshotKey(id), serializeManifest(built.manifest));
  }
  await mkdir(path.dirname(local), { recursive: true });
  await rename(built.dir, local);
  await fsyncPath(path.dirname(local));
}
