import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../schemas/lake.ts';
import { moveCurrent, readCurrent, readCurrentPointer, swapCurrent } from './current-pointer.ts';
import { removeTempFiles } from '../lib/fs/durable-file.ts';
import { assertSnapshotId, lakePaths, PARTIAL_SUFFIX } from './lake-paths.ts';
import { readStoredManifest, snapshotCacheDir, snapshotKey, type Lake } from './lake.ts';
import { MANIFEST_FILE, serializeManifest } from './manifest-file.ts';
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

/** Every complete snapshot in the lake, newest first (one without a valid manifest is skipped). */
export async function listSnapshots(lake: Lake): Promise<SnapshotSummary[]> {
  const current = await readCurrent(lake);
  const summaries: SnapshotSummary[] = [];
  for (const id of await snapshotIds(lake)) {
    const manifest = await readStoredManifest(lake, id).catch(() => null);
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
export async function readPublishedManifest(lake: Lake): Promise<Manifest | null> {
  const current = await readCurrent(lake);
  return current === null ? null : await readStoredManifest(lake, current).catch(() => null);
}

export async function showSnapshot(lake: Lake, id: string): Promise<Manifest> {
  return readSnapshotManifest(lake, id);
}

/**
 * Points CURRENT at an existing snapshot (by a compare-and-swap); returns the id it named before. A held
 * snapshot is refused: it is published after review (`publishHeld`), never rolled back to.
 */
export async function rollbackTo(lake: Lake, id: string): Promise<string | null> {
  const manifest = await readSnapshotManifest(lake, id);
  if (manifest.hold !== undefined && manifest.review === undefined) throw new HeldRollbackError(id);
  return moveCurrent(lake, id);
}

/** Rolling back to a snapshot that waits for review. */
export class HeldRollbackError extends Error {
  constructor(readonly id: string) {
    super(
      `snapshot ${id} is held for review, never published: review it (npm run lake -- diff ${id}) and ` +
        `publish it with npm run lake -- publish ${id} --reason "…"`,
    );
    this.name = 'HeldRollbackError';
  }
}

/**
 * Deletes all but the `keep` newest snapshots; the published one is always kept, whatever its age.
 * What crashed runs left behind goes too. Returns the deleted ids.
 */
export async function collectGarbage(lake: Lake, keep: number): Promise<string[]> {
  if (!Number.isInteger(keep) || keep < 0) throw new Error(`--keep must be a whole number ≥ 0, not ${keep}`);
  const current = await readCurrent(lake);
  const byAge = await listSnapshots(lake);
  const kept = new Set(byAge.slice(0, keep).map((s) => s.id));
  if (current !== null) kept.add(current);
  const doomed = (await snapshotIds(lake)).filter((id) => !kept.has(id));
  for (const id of doomed) {
    // The manifest first: a snapshot without one is no longer listed, so none is ever seen with files missing.
    await lake.store.delete(snapshotKey(id));
    for (const key of await lake.store.list(`snapshots/${id}/`)) await lake.store.delete(key);
    await rm(path.join(lake.workDir, 'snapshots', id), { recursive: true, force: true });
    await rm(path.join(lakePaths(lake.workDir).servingCache, id), { recursive: true, force: true });
    await rm(path.join(snapshotCacheDir(lake), 'snapshots', id), { recursive: true, force: true });
  }
  await removeRunLeftovers(lake);
  return doomed.sort();
}

/** Removes what an interrupted run leaves behind: snapshots half built, temporary files, spilled tables. */
export async function removeRunLeftovers(lake: Lake): Promise<string[]> {
  const { root, snapshots, current, building, buildSpill } = lakePaths(lake.workDir);
  // Snapshots half written in place by earlier versions of the pipeline, in a directory lake.
  const partials = (await directoryEntries(snapshots)).filter((name) => name.endsWith(PARTIAL_SUFFIX));
  for (const name of partials) await rm(path.join(snapshots, name), { recursive: true, force: true });
  const built = (await directoryEntries(building)).map((name) =>
    path.relative(root, path.join(building, name)),
  );
  await rm(building, { recursive: true, force: true });
  // LAKE_DIR is shared with other components (the key file, the log): only CURRENT's temporaries are ours.
  const currentTemps = await removeTempFiles(root, path.basename(current));
  const spill = (await directoryEntries(buildSpill)).length > 0 ? [path.relative(root, buildSpill)] : [];
  await rm(buildSpill, { recursive: true, force: true });
  return [...partials, ...built, ...currentTemps, ...(await removeTempFiles(snapshots)), ...spill];
}

async function readSnapshotManifest(lake: Lake, id: string): Promise<Manifest> {
  const manifest = await readStoredManifest(lake, assertSnapshotId(id));
  if (manifest === null) throw new UnknownSnapshotError(id);
  return manifest;
}

/** The ids of the snapshots whose manifest is in the store (a snapshot being written has none yet). */
async function snapshotIds(lake: Lake): Promise<string[]> {
  const ids: string[] = [];
  for (const key of await lake.store.list('snapshots/')) {
    const [, id, file, ...rest] = key.split('/');
    if (file !== MANIFEST_FILE || rest.length > 0) continue;
    try {
      if (assertSnapshotId(id!) === id) ids.push(id);
    } catch {
      // Not a snapshot's directory (a leftover of an interrupted write): not listed.
    }
  }
  return ids;
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
export async function publishHeld(lake: Lake, id: string, review: Review): Promise<Manifest> {
  const manifest = await readSnapshotManifest(lake, id);
  if (manifest.hold === undefined || manifest.review !== undefined) throw new NotHeldError(id);
  const current = await readCurrentPointer(lake);
  if (current.id !== manifest.hold.against) throw new StaleHoldError(id, manifest.hold.against, current.id);
  const reviewed: Manifest = {
    ...manifest,
    review: { publishedAt: review.now.toISOString(), operator: review.operator, reason: review.reason },
  };
  await lake.store.put(snapshotKey(id), serializeManifest(reviewed));
  // A local copy's manifest must say the same: it is read in place of the store's.
  await rm(path.join(snapshotCacheDir(lake), 'snapshots', id), { recursive: true, force: true });
  await swapCurrent(lake, id, current);
  return reviewed;
}
