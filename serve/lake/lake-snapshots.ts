import { localCopy, readStoredManifest, type Lake } from '../../data-lake/lake.ts';
import { InvalidSnapshotIdError, snapshotDir } from '../../data-lake/lake-paths.ts';
import { listSnapshots } from '../../data-lake/snapshot-store.ts';
import type { HeldListing } from '../../schemas/lake-api.ts';
import type { Manifest } from '../../schemas/lake.ts';
import type { ServedFile } from '../http/send-file.ts';
import { pinnedLakeFileUrl, servedTableFile } from './lake-files.ts';

/** A manifest read this long ago is read again (a held snapshot may have been published since). */
const MANIFEST_TTL_MS = 5_000;

/** A table of a snapshot the lake holds besides the one served, and whether it waits for review. */
export interface SnapshotTableFile {
  file: ServedFile;
  held: boolean;
}

/**
 * The lake's other snapshots, read through the lake layer when a pinned URL names one: the one served
 * before the last publish (a remote reader still on it), earlier ones gc has not collected, and those held
 * for review. Manifests are kept a few seconds, so a reader's many range requests read one once.
 */
export class LakeSnapshots {
  private readonly manifests = new Map<string, { manifest: Manifest | null; readAt: number }>();

  constructor(
    private readonly lake: Lake,
    private readonly now: () => number = Date.now,
  ) {}

  /** The table's file in that snapshot, or null when the lake has no such snapshot (or it no such table). */
  async tableFile(snapshotId: string, table: string): Promise<SnapshotTableFile | null> {
    const manifest = await this.manifest(snapshotId);
    if (manifest === null || manifest.tables[table] === undefined) return null;
    return {
      file: await servedTableFile(snapshotId, await this.localDir(snapshotId), manifest, table),
      held: manifest.hold !== undefined && manifest.review === undefined,
    };
  }

  /** The snapshots written but held for review, newest first, with their pinned tables. */
  async held(): Promise<HeldListing> {
    const held: HeldListing['held'] = [];
    for (const summary of await listSnapshots(this.lake)) {
      if (summary.status !== 'held') continue;
      const manifest = await this.manifest(summary.id);
      if (manifest?.hold === undefined) continue;
      const dir = await this.localDir(summary.id);
      const tables = [];
      for (const [name, entry] of Object.entries(manifest.tables).sort(([a], [b]) => a.localeCompare(b))) {
        const file = await servedTableFile(summary.id, dir, manifest, name);
        tables.push({
          name,
          rows: entry.rows,
          bytes: file.size,
          sha256: entry.sha256,
          url: pinnedLakeFileUrl(summary.id, name),
        });
      }
      held.push({
        id: summary.id,
        created_at: manifest.createdAt,
        against: manifest.hold.against,
        findings: manifest.hold.findings.map(({ table, check, message, examples }) => ({
          table,
          check,
          message,
          examples: examples ?? [],
        })),
        tables,
      });
    }
    return { held };
  }

  /** This machine's copy of the snapshot's files (a remote lake's downloaded and checked once). */
  private async localDir(snapshotId: string): Promise<string> {
    return snapshotDir((await localCopy(this.lake, snapshotId)).workDir, snapshotId);
  }

  private async manifest(snapshotId: string): Promise<Manifest | null> {
    const kept = this.manifests.get(snapshotId);
    if (kept !== undefined && this.now() - kept.readAt < MANIFEST_TTL_MS) return kept.manifest;
    let manifest: Manifest | null;
    try {
      // Null when not in the lake (collected, or never).
      manifest = await readStoredManifest(this.lake, snapshotId);
    } catch (error) {
      if (!(error instanceof InvalidSnapshotIdError)) throw error;
      manifest = null;
    }
    // Bounded: a client naming many ids must not grow the map without end.
    if (this.manifests.size >= 64) this.manifests.clear();
    this.manifests.set(snapshotId, { manifest, readAt: this.now() });
    return manifest;
  }
}
