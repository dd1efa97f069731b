import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../schemas/lake.ts';
import { readCurrent, writeCurrent } from './current-pointer.ts';
import { removeTempFiles, TEMP_MARKER } from '../lib/fs/durable-file.ts';
import { assertSnapshotId, lakePaths, PARTIAL_SUFFIX, snapshotDir } from './lake-paths.ts';
import { readManifest } from './manifest-file.ts';

export interface SnapshotSummary {
  id: string;
  createdAt: string;
  parent: string | null;
  fingerprint: string;
  current: boolean;
  tables: number;
  rows: number;
}

export class UnknownSnapshotError extends Error {
  constructor(readonly id: string) {
    super(`no snapshot "${id}" in the lake (see: npm run lake -- list)`);
    this.name = 'UnknownSnapshotError';
  }
}

/** Every complete snapshot in the lake, newest first (a directory without a valid manifest is skipped). */
export async function listSnapshots(lakeDir: string): Promise<SnapshotSummary[]> {
  const current = await readCurrent(lakeDir);
  const summaries: SnapshotSummary[] = [];
  for (const id of await snapshotIds(lakeDir)) {
    const manifest = await readManifest(snapshotDir(lakeDir, id)).catch(() => null);
    if (manifest === null) continue;
    const tables = Object.values(manifest.tables);
    summaries.push({
      id,
      createdAt: manifest.createdAt,
      parent: manifest.parent,
      fingerprint: manifest.fingerprint,
      current: id === current,
      tables: tables.length,
      rows: tables.reduce((sum, t) => sum + t.rows, 0),
    });
  }
  return summaries.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

export async function showSnapshot(lakeDir: string, id: string): Promise<Manifest> {
  return readSnapshotManifest(lakeDir, id);
}

/** Points CURRENT at an existing snapshot (atomically); returns the id it named before. */
export async function rollbackTo(lakeDir: string, id: string): Promise<string | null> {
  await readSnapshotManifest(lakeDir, id);
  const previous = await readCurrent(lakeDir);
  await writeCurrent(lakeDir, id);
  return previous;
}

/**
 * Deletes all but the `keep` newest snapshots; the published one is always kept, whatever its age.
 * Partial snapshots and temporary files left by crashed runs go too. Returns the deleted ids.
 */
export async function collectGarbage(lakeDir: string, keep: number): Promise<string[]> {
  if (!Number.isInteger(keep) || keep < 0) throw new Error(`--keep must be a whole number ≥ 0, not ${keep}`);
  const current = await readCurrent(lakeDir);
  const byAge = await listSnapshots(lakeDir);
  const kept = new Set(byAge.slice(0, keep).map((s) => s.id));
  if (current !== null) kept.add(current);
  const doomed = (await snapshotIds(lakeDir)).filter((id) => !kept.has(id));
  for (const id of doomed) {
    // Renamed aside first, so a crash mid-delete never leaves a listed snapshot with files missing.
    const aside = `${snapshotDir(lakeDir, id)}${TEMP_MARKER}deleting`;
    await rename(snapshotDir(lakeDir, id), aside);
    await rm(aside, { recursive: true, force: true });
    await rm(path.join(lakePaths(lakeDir).servingCache, id), { recursive: true, force: true });
  }
  await removeRunLeftovers(lakeDir);
  return doomed.sort();
}

/** Removes what an interrupted run leaves behind: `.partial` snapshot directories and temporary files. */
export async function removeRunLeftovers(lakeDir: string): Promise<string[]> {
  const { root, snapshots, current, buildSpill } = lakePaths(lakeDir);
  const partials = (await entries(snapshots)).filter((name) => name.endsWith(PARTIAL_SUFFIX));
  for (const name of partials) await rm(path.join(snapshots, name), { recursive: true, force: true });
  // LAKE_DIR is shared with other components (the key file, the log): only CURRENT's temporaries are ours.
  const currentTemps = await removeTempFiles(root, path.basename(current));
  const spill = (await entries(buildSpill)).length > 0 ? [path.relative(root, buildSpill)] : [];
  await rm(buildSpill, { recursive: true, force: true });
  return [...partials, ...currentTemps, ...(await removeTempFiles(snapshots)), ...spill];
}

async function readSnapshotManifest(lakeDir: string, id: string): Promise<Manifest> {
  assertSnapshotId(id);
  try {
    return await readManifest(snapshotDir(lakeDir, id));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UnknownSnapshotError(id);
    throw error;
  }
}

async function snapshotIds(lakeDir: string): Promise<string[]> {
  return (await entries(lakePaths(lakeDir).snapshots)).filter((name) => {
    try {
      return assertSnapshotId(name) === name;
    } catch {
      return false;
    }
  });
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
