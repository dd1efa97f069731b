import { isDeepStrictEqual } from 'node:util';
import type { Manifest } from '../../schemas/lake.ts';
import type { TableRef } from '../../data-lake/tables/table-ref.ts';
import type { SnapshotReader } from '../../data-lake/snapshot-reader.ts';

/**
 * What a group of routes needs in memory from a snapshot. The server loads every module once per
 * published snapshot and swaps them all at once, so a request never sees two snapshots.
 */
export interface SnapshotLoader<T> {
  name: string;
  /** Tables the module reads; a snapshot missing one is refused before anything is swapped. */
  tables: readonly TableRef[];
  /**
   * Reads and prepares the module's data. `served` is what the snapshot served now loaded for this module,
   * when there is one: a module may keep the parts of it made from tables this snapshot did not change.
   */
  load(snapshot: SnapshotReader, served?: ServedData<T>): Promise<T>;
  /**
   * Whether what `load` returned can answer (default: yes). A module whose tables are optional loads
   * without them and is not ready: its family is still being precomputed (see /healthz).
   */
  ready?(data: T): boolean;
  /**
   * Everything of a manifest that `load`'s result is made from (the entries of the tables it reads, which
   * hold their SHA-256; the code version; …), when a module states it: a snapshot whose `madeFrom` equals
   * that of the snapshot served keeps the data loaded for it, so a publish that changes a few tables reloads
   * only the modules that read them. A module that says nothing is loaded again for every snapshot.
   */
  madeFrom?(manifest: Manifest): unknown;
}

/** A module's data as loaded for the snapshot served, with that snapshot's manifest. */
export interface ServedData<T> {
  manifest: Manifest;
  data: T;
}

/** The manifest's entries of `tables` (null for a table it lacks): what a module's data is made from. */
export const tableEntries = (manifest: Manifest, tables: readonly TableRef[]) =>
  tables.map((table) => manifest.tables[table.name] ?? null);

/** Whether `a` and `b` hold the same files of `tables` (a table both lack counts as the same). */
export const sameTables = (a: Manifest, b: Manifest, tables: readonly TableRef[]) =>
  isDeepStrictEqual(tableEntries(a, tables), tableEntries(b, tables));
