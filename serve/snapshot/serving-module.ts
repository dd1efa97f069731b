import type { Manifest } from '../../schemas/lake.ts';

/** Read access to one published snapshot of the lake. */
export interface SnapshotReader {
  readonly id: string;
  readonly dir: string;
  readonly manifest: Manifest;
  /** All rows of a table of this snapshot (JSON columns parsed back into values). */
  rows<T = Record<string, unknown>>(table: string): Promise<T[]>;
  /**
   * Writes the result of `sql` (over this snapshot's tables, each a view named after its table; numeric
   * columns only) as little-endian float64, row after row, to a file in the lake's serving cache, and
   * returns its path and how many numbers it holds. For tables too large to hold as row objects: the caller reads the file
   * by position. The file is named after the snapshot, `name` and the query, so a restart reuses it.
   */
  writeFloat64File(name: string, sql: string): Promise<Float64File>;
}

export interface Float64File {
  path: string;
  /** Numbers in the file: rows × columns. */
  values: number;
}

/**
 * What a group of routes needs in memory from a snapshot. The server loads every module once per
 * published snapshot and swaps them all at once, so a request never sees two snapshots.
 */
export interface ServingModule<T> {
  name: string;
  /** Tables the module reads; a snapshot missing one is refused before anything is swapped. */
  tables: string[];
  load(snapshot: SnapshotReader): Promise<T>;
}
