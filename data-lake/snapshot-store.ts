import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../schemas/lake.ts';
import { readCurrent, writeCurrent } from './current-pointer.ts';
import { removeTempFiles, TEMP_MARKER, writeFileAtomically } from '../lib/fs/durable-file.ts';
import { assertSnapshotId, lakePaths, PARTIAL_SUFFIX, snapshotDir } from './lake-paths.ts';
import { MANIFEST_FILE, readManifest, serializeManifest } from './manifest-file.ts';
import { directoryEntries } from '../lib/fs/directory-entries.ts';

export interface SnapshotSummary {
  id: string;
  createdAt: string;
  parent: string | null;
  fingerprint: string;
  /**
   * `current`: CURRENT names it; `held`: written by a run whose audits held it for review, never published;
   * `superseded`: published once (or never held) and no longer current.
   */
  status: 'current' | 'held' | 'superseded';
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
      status: id === current ? 'current' : manifest.hold && !manifest.review ? 'held' : 'superseded',
      tables: tables.length,
      rows: tables.reduce((sum, t) => sum + t.rows, 0),
    });
  }
  return summaries.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/**
 * The manifest of the snapshot CURRENT names, or null when nothing is published or its manifest cannot be
 * read (a run then treats the lake as having nothing to compare with or reuse).
 */
export async function readPublishedManifest(lakeDir: string): Promise<Manifest | null> {
  const current = await readCurrent(lakeDir);
  return current === null ? null : await readManifest(snapshotDir(lakeDir, current)).catch(() => null);
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
  const partials = (await directoryEntries(snapshots)).filter((name) => name.endsWith(PARTIAL_SUFFIX));
  for (const name of partials) await rm(path.join(snapshots, name), { recursive: true, force: true });
  // LAKE_DIR is shared with other components (the key file, the log): only CURRENT's temporaries are ours.
  const currentTemps = await removeTempFiles(root, path.basename(current));
  const spill = (await directoryEntries(buildSpill)).length > 0 ? [path.relative(root, buildSpill)] : [];
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
  return (await directoryEntries(lakePaths(lakeDir).snapshots)).filter((name) => {
    try {
      return assertSnapshotId(name) === name;
    } catch {
      return false;
    }
  });
}

/** Publishing a snapshot that is not waiting for review. */
export class NotHeldError extends Error {
  constructor(readonly id: string) {
    super(
      `snapshot ${id} is not held for review (npm run lake -- list shows which are); ` +
        'npm run lake -- rollback <id> publishes an earlier snapshot',
    );
    this.name = 'NotHeldError';
  }
}

/** Publishing a held snapshot whose audits compared it with a snapshot that is no longer CURRENT. */
export class StaleHoldError extends Error {
  constructor(id: string, against: string, current: string | null) {
    super(
      `snapshot ${id} was audited against ${against}, but CURRENT is now ${current ?? 'nothing'}: run the ` +
        `pipeline again so its audits compare with what is published`,
    );
    this.name = 'StaleHoldError';
  }
}

/** Who published a held snapshot, when and why: recorded in its manifest. */
export interface Review {
  operator: string;
  reason: string;
  now: Date;
}

/**
 * Publishes a snapshot a run held for review: the review is recorded in its manifest (replaced
 * atomically; its tables' files never change), then CURRENT names it. Refused unless the snapshot is held
 * and was compared with what CURRENT names now.
 */
export async function publishHeld(lakeDir: string, id: string, review: Review): Promise<Manifest> {
  const manifest = await readSnapshotManifest(lakeDir, id);
  if (manifest.hold === undefined || manifest.review !== undefined) throw new NotHeldError(id);
  const current = await readCurrent(lakeDir);
  if (current !== manifest.hold.against) throw new StaleHoldError(id, manifest.hold.against, current);
  const reviewed: Manifest = {
    ...manifest,
    review: { publishedAt: review.now.toISOString(), operator: review.operator, reason: review.reason },
  };
  await writeFileAtomically(path.join(snapshotDir(lakeDir, id), MANIFEST_FILE), serializeManifest(reviewed));
  await writeCurrent(lakeDir, id);
  return reviewed;
}
