import { lakePaths } from '../../transform/lake/lake-paths.ts';
import { openSnapshot, readCurrent } from '../../transform/lake/snapshot-reader.ts';
import type { SnapshotSource } from './snapshot-holder.ts';

/** The lake's CURRENT pointer and snapshot directories, as the snapshot holder reads them. */
export function lakeSnapshotSource(lakeDir: string): SnapshotSource {
  return {
    currentId: () => readCurrent(lakeDir),
    open: (id) => openSnapshot(lakeDir, id),
    // CURRENT lives at the lake's root and is replaced by a rename there, which a directory watch reports.
    watchDir: lakePaths(lakeDir).root,
  };
}
