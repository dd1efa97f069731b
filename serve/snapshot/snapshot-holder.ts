import { watch, type FSWatcher } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from '../../lib/log.ts';
import type { Manifest } from '../../schemas/lake.ts';
import type { SnapshotReader } from '../../data-lake/snapshot-reader.ts';
import type { SnapshotLoader } from './snapshot-loader.ts';

/** Where published snapshots come from: the lake's CURRENT pointer and its snapshot directories. */
export interface SnapshotSource {
  /** The id CURRENT names, or null when nothing is published. Called on every poll, so it must be cheap. */
  currentId(): Promise<string | null>;
  open(id: string): Promise<SnapshotReader>;
  /** A directory whose changes may mean CURRENT moved; watched so a swap need not wait for the next poll. */
  readonly watchDir?: string;
  /**
   * Follows announcements that CURRENT moved (the published-snapshots topic), calling `onPublished` for
   * each and `onState` when following fails or recovers; returns what stops it. The poll stays the fallback.
   */
  follow?(onPublished: (id: string) => void, onState: (error: Error | null) => void): () => void;
}

/** How the holder's last look at the lake went: what /healthz and the metrics report. */
export interface SourceStatus {
  /** What CURRENT named when last read; null before the first read or when nothing is published. */
  current: string | null;
  /** Whether the last read of CURRENT succeeded (false: the store is unreachable, the last snapshot serves). */
  reachable: boolean;
  /** The last failure to read CURRENT or to load what it names, while it lasts; else null. */
  error: string | null;
  /** Since when that failure has lasted (ISO time). */
  since: string | null;
  /** The announcements of publishes: followed, failing (the poll covers), or not configured. */
  announcements: 'following' | 'failing' | 'off';
  /** The snapshot the last announcement heard named (null: none heard yet). */
  announced: string | null;
}

/** One published snapshot with every module's data loaded: immutable, swapped as a whole. */
export interface LoadedSnapshot {
  readonly id: string;
  readonly createdAt: string;
  readonly manifest: Manifest;
  /** SnapshotLoader name → what its `load` returned. */
  readonly data: ReadonlyMap<string, unknown>;
}

export interface SnapshotHolderOptions {
  source: SnapshotSource;
  loaders: readonly SnapshotLoader<unknown>[];
  pollMs: number;
  logger: Logger;
  /** Told of each swap and each failed load (the serving process's metrics count them). */
  events?: { snapshotSwapped(): void; snapshotLoadFailed(): void };
}

/**
 * Loads every module from one snapshot; refuses a snapshot that lacks a table a module reads. A module whose
 * data is made from the same parts of the manifest as in `served` (see SnapshotLoader.madeFrom) keeps the
 * data loaded then; another is loaded again, given that data to keep what it can of it.
 */
export async function loadSnapshot(
  reader: SnapshotReader,
  loaders: readonly SnapshotLoader<unknown>[],
  served: LoadedSnapshot | null = null,
): Promise<LoadedSnapshot> {
  const missing = loaders.flatMap((m) =>
    m.tables.filter((t) => !(t.name in reader.manifest.tables)).map((t) => `${m.name} needs table ${t.name}`),
  );
  if (missing.length > 0) throw new Error(`snapshot ${reader.id} is incomplete: ${missing.join('; ')}`);
  // CURRENT never names a held snapshot but by mistake (a hand-edited pointer): it waits for review.
  if (reader.manifest.hold !== undefined && reader.manifest.review === undefined) {
    throw new Error(`snapshot ${reader.id} is held for review, not published: it is not served`);
  }
  const loaded = await Promise.all(
    loaders.map(
      async (m) =>
        [
          m.name,
          reusable(m, reader.manifest, served) ??
            (await m.load(
              reader,
              served?.data.has(m.name)
                ? { manifest: served.manifest, data: served.data.get(m.name) }
                : undefined,
            )),
        ] as const,
    ),
  );
  return Object.freeze({
    id: reader.id,
    createdAt: reader.manifest.createdAt,
    manifest: reader.manifest,
    data: new Map(loaded),
  });
}

/** What `served` loaded for module `m`, when it is made from the same parts of `manifest`; else undefined. */
function reusable(m: SnapshotLoader<unknown>, manifest: Manifest, served: LoadedSnapshot | null): unknown {
  if (m.madeFrom === undefined || served === null || !served.data.has(m.name)) return undefined;
  return isDeepStrictEqual(m.madeFrom(manifest), m.madeFrom(served.manifest))
    ? served.data.get(m.name)
    : undefined;
}

/**
 * Holds the snapshot the server answers from. It follows CURRENT (poll, plus a directory watch when the
 * platform offers one), loads a new snapshot completely before swapping a single reference to it, and
 * keeps the old one when a load fails, so what is served only ever changes from one whole snapshot to
 * another. Requests keep the reference they started with (see the app's pinning hook).
 */
export class SnapshotHolder {
  private snapshot: LoadedSnapshot | null = null;
  private running: Promise<void> | undefined;
  private rerun = false;
  /** What failed last (a snapshot id, or CURRENT itself), so a failure that persists is logged once. */
  private lastFailure: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;
  private stopFollowing: (() => void) | undefined;
  private sourceStatus: SourceStatus = {
    current: null,
    reachable: true,
    error: null,
    since: null,
    announcements: 'off',
    announced: null,
  };

  constructor(private readonly options: SnapshotHolderOptions) {}

  current(): LoadedSnapshot | null {
    return this.snapshot;
  }

  status(): SourceStatus {
    return this.sourceStatus;
  }

  /** Loads what CURRENT names (if anything), then follows it. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.pollMs);
    this.timer.unref();
    const { source } = this.options;
    if (source.follow !== undefined) {
      this.sourceStatus = { ...this.sourceStatus, announcements: 'following' };
      this.stopFollowing = source.follow(
        (id) => {
          this.sourceStatus = { ...this.sourceStatus, announced: id };
          void this.refresh();
        },
        (error) => {
          this.sourceStatus = {
            ...this.sourceStatus,
            announcements: error === null ? 'following' : 'failing',
          };
        },
      );
    }
    const dir = source.watchDir;
    if (dir === undefined) return;
    try {
      this.watcher = watch(dir, { persistent: false }, () => void this.refresh());
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      this.watcher = undefined; // the lake directory does not exist yet: the poll covers it
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.watcher?.close();
    this.stopFollowing?.();
  }

  /** Checks CURRENT and swaps if it moved. A call during a check makes one more check after it. */
  refresh(): Promise<void> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.rerun = false;
        await this.checkOnce();
      } while (this.rerun);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async checkOnce(): Promise<void> {
    const { source, loaders, logger } = this.options;
    let id: string | null = null;
    let reachable = false;
    try {
      id = await source.currentId();
      reachable = true;
      if (id === null || id === this.snapshot?.id) {
        this.sourceStatus = { ...this.sourceStatus, current: id, reachable, error: null, since: null };
        return;
      }
      const loadStarted = performance.now();
      const reader = await source.open(id);
      // Opening copies a remote lake's snapshot into this machine's cache and checks it: said apart from the rest.
      const openMs = Math.round(performance.now() - loadStarted);
      const loaded = await loadSnapshot(reader, loaders, this.snapshot);
      const loadMs = Math.round(performance.now() - loadStarted);
      const previous = this.snapshot?.id ?? null;
      this.snapshot = loaded;
      this.lastFailure = null;
      this.sourceStatus = { ...this.sourceStatus, current: id, reachable, error: null, since: null };
      this.options.events?.snapshotSwapped();
      logger.info({ snapshot: loaded.id, previous, loadMs, openMs }, 'serving snapshot');
    } catch (err) {
      this.sourceStatus = {
        ...this.sourceStatus,
        current: reachable ? id : this.sourceStatus.current,
        reachable,
        error: (err as Error).message,
        since: this.sourceStatus.since ?? new Date().toISOString(),
      };
      this.options.events?.snapshotLoadFailed();
      // Logged once per failure: the poll retries quietly (a transient failure heals by itself).
      const failure = id ?? 'CURRENT';
      if (failure !== this.lastFailure) {
        logger.error(
          { err, snapshot: id, serving: this.snapshot?.id ?? null },
          reachable
            ? 'snapshot load failed; still serving the previous one'
            : "the lake's CURRENT cannot be read; still serving the previous snapshot",
        );
      }
      this.lastFailure = failure;
    }
  }
}
