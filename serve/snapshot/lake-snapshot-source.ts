import type { Lake } from '../../data-lake/lake.ts';
import { lakePaths } from '../../data-lake/lake-paths.ts';
import { readCurrent } from '../../data-lake/snapshot-reader.ts';
import { openSnapshotInChildProcess } from './child-process-snapshot-reader.ts';
import type { SnapshotSource } from './snapshot-holder.ts';

/**
 * The lake's CURRENT pointer and snapshot directories, as the snapshot holder reads them. Tables are read
 * in a child process, so the serving process never holds DuckDB's memory.
 */
export function lakeSnapshotSource(lake: Lake): SnapshotSource {
  const inPlace = lake.store.localPath('CURRENT');
  return {
    currentId: () => readCurrent(lake),
    open: (id) => openSnapshotInChildProcess(lake, id),
    // In a directory lake CURRENT is replaced by a rename at its root, which a directory watch reports.
    ...(inPlace === null ? {} : { watchDir: lakePaths(lake.workDir).root }),
  };
}
