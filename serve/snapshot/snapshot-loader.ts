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
  load(snapshot: SnapshotReader): Promise<T>;
  /**
   * Whether what `load` returned can answer (default: yes). A module whose tables are optional loads
   * without them and is not ready: its family is still being precomputed (see /healthz).
   */
  ready?(data: T): boolean;
}
