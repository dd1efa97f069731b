/**
 * Where the lake's objects live, by key ("CURRENT", "snapshots/<id>/manifest.json", "runs/<id>.json"): a
 * directory (LAKE_DIR) or a prefix of an S3 bucket (LAKE_URL). Both back ends pass one contract suite
 * (test/data-lake/store/lake-store-contract.ts). Snapshot files are written once and never changed; the
 * one object that moves, CURRENT, is replaced only by a compare-and-swap, so two pipelines racing to
 * publish cannot both win (the anchor: Iceberg's catalog swap of the current metadata pointer).
 */
export interface LakeStore {
  /** Where it is, for messages: a directory, or `s3://bucket/prefix`. */
  readonly location: string;
  /** The object's bytes and version, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Writes an object, replacing any there (atomically: a reader sees the old bytes or the new). */
  put(key: string, body: string | Buffer): Promise<void>;
  /**
   * Writes an object only if its version is still `expected` (null: only if there is none), atomically;
   * false, and nothing written, when another writer got there first.
   */
  putIfVersion(key: string, body: string | Buffer, expected: string | null): Promise<boolean>;
  /** The keys under `prefix` (e.g. "snapshots/"), at any depth, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Deletes an object; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Writes a local file as an object (a large table file, read in pieces). */
  upload(key: string, file: string): Promise<void>;
  /** Copies an object to a local file (atomically); false when there is none. */
  download(key: string, file: string): Promise<boolean>;
  /** Copies an object to another key within the store (an unchanged table taken into a new snapshot). */
  copy(from: string, to: string): Promise<void>;
  /** The object's file when the store is a local directory, so readers can use it in place; else null. */
  localPath(key: string): string | null;
}

export interface StoredObject {
  body: Buffer;
  /** Changes whenever the object does: what `putIfVersion` compares. */
  version: string;
}

/** The store could not be reached or refused a request (network, credentials, a missing bucket). */
export class LakeStoreError extends Error {
  constructor(location: string, operation: string, options: { cause: unknown }) {
    super(
      `lake store ${location}: ${operation} failed: ${(options.cause as Error)?.message ?? options.cause}`,
      options,
    );
    this.name = 'LakeStoreError';
  }
}

/** A key is a relative path of plain segments: nothing that could name an object outside the lake. */
export function assertKey(key: string): string {
  if (key === '' || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`"${key}" is not a key of the lake`);
  }
  return key;
}
