import type { Manifest } from '../../schemas/lake.ts';

/** Read access to one published snapshot of the lake. */
export interface SnapshotReader {
  readonly id: string;
  readonly dir: string;
  readonly manifest: Manifest;
  /** All rows of a table of this snapshot (JSON columns parsed back into values). */
  rows<T = Record<string, unknown>>(table: string): Promise<T[]>;
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
