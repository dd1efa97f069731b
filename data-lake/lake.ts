import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../schemas/config.ts';
import type { Manifest } from '../schemas/lake.ts';
import { TEMP_MARKER } from '../lib/fs/durable-file.ts';
import { assertSnapshotId } from './lake-paths.ts';
import { MANIFEST_FILE, parseManifest, readManifest } from './manifest-file.ts';
import { sha256OfFile } from './parquet-file.ts';
import { DirectoryStore } from './store/directory-store.ts';
import type { LakeStore } from './store/lake-store.ts';
import { S3Store } from './store/s3-store.ts';

/**
 * A lake: its store, where snapshots, CURRENT, run records and source freshness live (a directory, or an
 * S3 bucket shared by hosts), and this machine's working directory beside it (LAKE_DIR: the embedded event
 * log, staging, the run lock, the key file, caches). For a lake in a directory the two are one directory,
 * laid out as it always was.
 */
export interface Lake {
  readonly store: LakeStore;
  readonly workDir: string;
}

const lakes = new Map<string, Lake>();

/** The lake of the configuration: LAKE_URL's store when set, else the directory LAKE_DIR. */
export function openLake(config: Pick<Config, 'LAKE_DIR' | 'LAKE_URL'>): Lake {
  const workDir = path.resolve(config.LAKE_DIR);
  if (config.LAKE_URL === undefined) return localLake(workDir);
  const id = `${config.LAKE_URL} ${workDir}`;
  let lake = lakes.get(id);
  if (lake === undefined) lakes.set(id, (lake = { store: new S3Store(config.LAKE_URL), workDir }));
  return lake;
}

/** The lake in a directory: its store and working directory are that directory. */
export function localLake(dir: string): Lake {
  return { store: new DirectoryStore(dir), workDir: path.resolve(dir) };
}

/** Store keys of a snapshot's objects. */
export const snapshotKey = (id: string, file = MANIFEST_FILE): string =>
  `snapshots/${assertSnapshotId(id)}/${file}`;
export const CURRENT_KEY = 'CURRENT';

/** A manifest from the store; null when the snapshot has none (not there, or not complete yet). */
export async function readStoredManifest(lake: Lake, id: string): Promise<Manifest | null> {
  const object = await lake.store.get(snapshotKey(id));
  return object === null
    ? null
    : parseManifest(object.body.toString('utf8'), `${lake.store.location}/${snapshotKey(id)}`);
}

/** Where this machine keeps copies of a remote lake's snapshots, laid out as a directory lake. */
export const snapshotCacheDir = (lake: Lake): string => path.join(lake.workDir, 'cache', 'lake');

/**
 * How many of a snapshot's files a copy downloads at once: each request mostly waits on the store (its latency,
 * one connection's throughput), so a snapshot of tens of files is copied several times faster than one file
 * after the other, and a replica serves a new publish that much sooner.
 */
const PARALLEL_DOWNLOADS = 4;

/**
 * A directory lake on this machine holding snapshot `id` whole: the lake itself when it is a directory;
 * for a remote store, the local cache, with each of the snapshot's files linked from a snapshot already
 * cached that has the same bytes (a publish mostly changes a few tables) or else downloaded
 * (PARALLEL_DOWNLOADS at once), and each file's SHA-256 checked against its manifest first (a corrupt or
 * truncated file is refused, never read).
 */
export async function localCopy(lake: Lake, id: string): Promise<Lake> {
  const inPlace = lake.store.localPath(snapshotKey(id));
  if (inPlace !== null) {
    if (!(await exists(inPlace))) throw new SnapshotNotInStoreError(lake, id);
    return lake;
  }
  const cache = localLake(snapshotCacheDir(lake));
  const dir = path.join(cache.workDir, 'snapshots', assertSnapshotId(id));
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (await exists(manifestFile)) return cache;
  const manifest = await readStoredManifest(lake, id);
  if (manifest === null) throw new SnapshotNotInStoreError(lake, id);
  const cached = await cachedFilesBySha256(cache);
  // Downloaded beside, then renamed into place whole: a snapshot in the cache is complete and checked.
  const partial = `${dir}${TEMP_MARKER}${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(partial, { recursive: true });
  try {
    const download = async (entry: TableEntry, file: string) => {
      if (!(await lake.store.download(snapshotKey(id, entry.file), file))) {
        throw new SnapshotNotInStoreError(lake, id, entry.file);
      }
      const sha256 = await sha256OfFile(file);
      if (sha256 !== entry.sha256) throw new CorruptSnapshotError(lake, id, entry.file, entry.sha256, sha256);
    };
    const entries = Object.values(manifest.tables);
    let next = 0;
    let stopped = false;
    const copyTheRest = async () => {
      for (let entry = entries[next++]; entry !== undefined && !stopped; entry = entries[next++]) {
        const file = path.join(partial, entry.file);
        const linked = await linkCachedFile(cached.get(entry.sha256), file);
        // A cached file is checked as a download is; one changed on this disk since is fetched again.
        if (linked && (await sha256OfFile(file)) === entry.sha256) continue;
        if (linked) await rm(file);
        await download(entry, file);
      }
    };
    // Once one fails the others start no more; every download settles before the partial folder is removed.
    const copies = await Promise.allSettled(
      Array.from({ length: PARALLEL_DOWNLOADS }, () =>
        copyTheRest().catch((error: unknown) => {
          stopped = true;
          throw error;
        }),
      ),
    );
    const failed = copies.find((d) => d.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    await lake.store.download(snapshotKey(id), path.join(partial, MANIFEST_FILE));
    // Another reader in this process or another may have cached it meanwhile: theirs is as good.
    await rename(partial, dir).catch(async (error: NodeJS.ErrnoException) => {
      if (!(await exists(manifestFile))) throw error;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return cache;
}

type TableEntry = Manifest['tables'][string];

/** The files of the snapshots already in a cache, by their SHA-256 (from each one's manifest). */
async function cachedFilesBySha256(cache: Lake): Promise<Map<string, string>> {
  const snapshots = path.join(cache.workDir, 'snapshots');
  const files = new Map<string, string>();
  for (const id of await readdir(snapshots).catch(() => [])) {
    if (id.includes(TEMP_MARKER)) continue;
    const manifest = await readManifest(path.join(snapshots, id)).catch(() => null);
    for (const entry of Object.values(manifest?.tables ?? {})) {
      files.set(entry.sha256, path.join(snapshots, id, entry.file));
    }
  }
  return files;
}

/**
 * Hard-links a cached snapshot's file (never changed once written) as `file`; false when there is none, or
 * it is gone (its snapshot pruned meanwhile).
 */
const linkCachedFile = (cached: string | undefined, file: string): Promise<boolean> =>
  cached === undefined
    ? Promise.resolve(false)
    : link(cached, file).then(
        () => true,
        () => false,
      );

export class SnapshotNotInStoreError extends Error {
  constructor(lake: Lake, id: string, file?: string) {
    super(
      file === undefined
        ? `snapshot ${id} is not in ${lake.store.location} (no manifest)`
        : `snapshot ${id} in ${lake.store.location} lacks ${file}, which its manifest lists`,
    );
    this.name = 'SnapshotNotInStoreError';
  }
}

/** A file whose bytes are not those its manifest's SHA-256 names: never served, never read. */
export class CorruptSnapshotError extends Error {
  constructor(lake: Lake, id: string, file: string, expected: string, actual: string) {
    super(
      `snapshot ${id} in ${lake.store.location}: ${file} has SHA-256 ${actual}, its manifest says ${expected}`,
    );
    this.name = 'CorruptSnapshotError';
  }
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
