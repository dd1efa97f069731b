import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../lib/log.ts';
import { hashApiKey, isActive, staticKeyId, type KeyFile, type KeyIdentity } from './api-key.ts';
import { readKeyFile } from './key-file.ts';

/** What the request path needs from a key store. */
export interface KeyAuthenticator {
  /** The identity of a valid, unrevoked key; null for anything else. */
  authenticate(key: string): KeyIdentity | null;
}

export interface KeyStoreOptions {
  /** <LAKE_DIR>/keys.json */
  file: string;
  /** Plain keys from API_KEYS; they are hashed here and the plain text is not kept. */
  staticKeys: readonly string[];
  /** How often the file is checked for changes (a file watch usually notices sooner). */
  pollMs: number;
  logger: Logger;
}

/** Index of active keys by hash: a request costs one SHA-256 and one map lookup. */
function indexKeys(file: KeyFile, staticHashes: ReadonlyMap<string, KeyIdentity>): Map<string, KeyIdentity> {
  const index = new Map(staticHashes);
  for (const key of file.keys) {
    if (isActive(key)) index.set(key.hash, { id: key.id, name: key.name, reviewer: key.reviewer === true });
  }
  return index;
}

/** How many recently accepted keys are remembered; past this the memory starts over (clients re-hash once). */
const RECENT_KEYS = 1024;

/**
 * The keys the server accepts: API_KEYS plus the active keys of keys.json, reloaded when the file
 * changes, so `npm run keys` takes effect without a restart. A file that cannot be read keeps the keys
 * loaded before (logged), so a bad edit does not lock every client out.
 */
export class KeyStore implements KeyAuthenticator {
  private index: Map<string, KeyIdentity>;
  /**
   * Keys accepted since the index was last loaded, so a client's every request does not pay a SHA-256.
   * Only accepted keys enter (a flood of bad keys cannot grow it), and it is dropped with the index, so
   * a revocation takes effect on the same reload. It holds the presented key text for as long as the
   * index stands, as any request in flight does; nothing of it is written anywhere.
   */
  private recent = new Map<string, KeyIdentity>();
  private fileSignature = '';
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> | undefined;

  private constructor(
    private readonly options: KeyStoreOptions,
    private readonly staticHashes: ReadonlyMap<string, KeyIdentity>,
  ) {
    this.index = new Map(staticHashes);
  }

  /** Loads the file (a missing file is an empty store; a malformed one throws) and starts watching it. */
  static async open(options: KeyStoreOptions): Promise<KeyStore> {
    const staticHashes = new Map<string, KeyIdentity>();
    for (const [i, key] of options.staticKeys.entries()) {
      const hash = hashApiKey(key);
      staticHashes.set(hash, { id: staticKeyId(hash), name: `API_KEYS[${i}]`, reviewer: false });
    }
    const store = new KeyStore(options, staticHashes);
    store.fileSignature = await store.signature();
    store.index = indexKeys(await readKeyFile(options.file), staticHashes);
    store.startWatching();
    return store;
  }

  authenticate(key: string): KeyIdentity | null {
    const remembered = this.recent.get(key);
    if (remembered !== undefined) return remembered;
    const identity = this.index.get(hashApiKey(key)) ?? null;
    if (identity !== null) {
      if (this.recent.size >= RECENT_KEYS) this.recent.clear();
      this.recent.set(key, identity);
    }
    return identity;
  }

  /** Re-reads the file if it changed since the last load. Concurrent calls share one reload. */
  reload(): Promise<void> {
    this.reloading ??= this.reloadIfChanged().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  close(): void {
    this.watcher?.close();
    clearInterval(this.timer);
  }

  private async reloadIfChanged(): Promise<void> {
    try {
      const signature = await this.signature();
      if (signature === this.fileSignature) return;
      const file = await readKeyFile(this.options.file);
      this.index = indexKeys(file, this.staticHashes);
      this.recent = new Map();
      this.fileSignature = signature;
      this.options.logger.info({ activeKeys: this.index.size, file: this.options.file }, 'API keys reloaded');
    } catch (err) {
      this.options.logger.error(
        { err, file: this.options.file },
        'API key file unreadable; keeping the keys loaded before',
      );
    }
  }

  /** Changes whenever the file is replaced (new inode from the atomic rename) or rewritten in place. */
  private async signature(): Promise<string> {
    try {
      const s = await stat(this.options.file);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw err;
    }
  }

  private startWatching(): void {
    this.timer = setInterval(() => void this.reload(), this.options.pollMs);
    this.timer.unref();
    // The directory is watched, not the file: an atomic rename replaces the file a watch would be bound to.
    try {
      const base = path.basename(this.options.file);
      this.watcher = watch(path.dirname(this.options.file), { persistent: false }, (_event, name) => {
        if (name === null || name === base) void this.reload();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      this.watcher = undefined; // no such directory yet: polling alone notices the file once it appears
    }
  }
}
