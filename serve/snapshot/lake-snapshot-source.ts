import { lakePaths } from '../../data-lake/lake-paths.ts';
import { readCurrent } from '../../data-lake/snapshot-reader.ts';
import { openSnapshotInChildProcess } from './child-process-snapshot-reader.ts';
import type { SnapshotSource } from './snapshot-holder.ts';

/**
 * The lake's CURRENT pointer and snapshot directories, as the snapshot holder reads them. Tables are read
 * in a child process, so the serving process never holds DuckDB's memory.
 */
export function lakeSnapshotSource(lakeDir: string): SnapshotSource {
  return {
    currentId: () => readCurrent(lakeDir),
    open: (id) => openSnapshotInChildProcess(lakeDir, id),
    // CURRENT lives at the lake's root and is replaced by a rename there, which a directory watch reports.
    watchDir: lakePaths(lakeDir).root,
  };
}
