import { copyFile, link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Manifest } from '../schemas/lake.ts';
import { fsyncPath, fsyncTree } from '../lib/fs/durable-file.ts';
import { assertSnapshotId, lakePaths, PARTIAL_SUFFIX } from './lake-paths.ts';
import { MANIFEST_FILE, serializeManifest } from './manifest-file.ts';
import { exportParquet, sha256OfFile } from './parquet-file.ts';

/**
 * One table of a snapshot being written: a DuckDB table of that name holds its rows, or, when `reuse` is
 * set, an earlier snapshot's file (immutable, so it is linked, not copied) already holds them.
 */
export type SnapshotTableDraft = Omit<Manifest['tables'][string], 'file' | 'sha256'> & {
  name: string;
  reuse?: { file: string; sha256: string };
};

/** Everything a manifest says except what writing the files reveals (file names and checksums). */
export type SnapshotDraft = Omit<Manifest, 'tables'> & { tables: SnapshotTableDraft[] };

export function partialSnapshotDir(lakeDir: string, id: string): string {
  return path.join(lakePaths(lakeDir).snapshots, `${assertSnapshotId(id)}${PARTIAL_SUFFIX}`);
}

/**
 * Writes every table to `snapshots/<id>.partial/<table>.parquet`, then the manifest, and flushes them all
 * to disk. Nothing reads a `.partial` directory, so a crash here leaves only a leftover to clean up.
 */
export async function writePartialSnapshot(
  lakeDir: string,
  db: DuckDBConnection,
  draft: SnapshotDraft,
  onTableWritten?: (table: string) => void,
): Promise<Manifest> {
  const dir = partialSnapshotDir(lakeDir, draft.id);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tables: Manifest['tables'] = {};
  for (const { name, reuse, ...entry } of draft.tables) {
    const file = `${name}.parquet`;
    const target = path.join(dir, file);
    if (reuse) await linkOrCopy(reuse.file, target);
    else await exportParquet(db, name, target);
    tables[name] = { file, sha256: reuse ? reuse.sha256 : await sha256OfFile(target), ...entry };
    onTableWritten?.(name);
  }
  const manifest: Manifest = { ...draft, tables };
  await writeFile(path.join(dir, MANIFEST_FILE), serializeManifest(manifest));
  await fsyncTree(dir);
  return manifest;
}

/** A hard link where the file system allows one (same device), else a copy. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}

/** Turns a fully written partial snapshot into a snapshot (one rename, so it appears whole or not at all). */
export async function promotePartialSnapshot(lakeDir: string, id: string): Promise<string> {
  const { snapshots } = lakePaths(lakeDir);
  const target = path.join(snapshots, assertSnapshotId(id));
  await rename(partialSnapshotDir(lakeDir, id), target);
  await fsyncPath(snapshots);
  return target;
}
