import path from 'node:path';

/** Where each part of the lake lives under LAKE_DIR. */
export interface LakePaths {
  root: string;
  /** One directory per snapshot id; `<id>.partial` while it is being written. */
  snapshots: string;
  /** Names the published snapshot id. */
  current: string;
  /** Accepted and quarantined records per source / version / record schema. */
  staging: string;
  /** The embedded event log's directory. */
  log: string;
  /** Held by the one pipeline run (or lake maintenance command) in progress. */
  runLock: string;
  /** One record per pipeline run, manual or scheduled (`npm run lake -- runs`). */
  runs: string;
  /** When each source last changed and was last read. */
  sourceFreshness: string;
  /** Files the server derives from a snapshot's tables (one directory per snapshot id), rebuilt when absent. */
  servingCache: string;
  /** Where a run writes its snapshot's files before they go into the lake's store; removed when it ends. */
  building: string;
  /** Where the run's DuckDB spills the tables it builds beyond its memory limit; removed when the run ends. */
  buildSpill: string;
}

export const PARTIAL_SUFFIX = '.partial';

export function lakePaths(lakeDir: string): LakePaths {
  const root = path.resolve(lakeDir);
  return {
    root,
    snapshots: path.join(root, 'snapshots'),
    current: path.join(root, 'CURRENT'),
    staging: path.join(root, 'staging'),
    log: path.join(root, 'log'),
    runLock: path.join(root, 'pipeline.lock'),
    runs: path.join(root, 'runs'),
    sourceFreshness: path.join(root, 'sources.json'),
    servingCache: path.join(root, 'cache', 'serving'),
    building: path.join(root, 'cache', 'build'),
    buildSpill: path.join(root, 'cache', 'build-spill'),
  };
}

const snapshotIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export class InvalidSnapshotIdError extends Error {
  constructor(readonly id: string) {
    super(`"${id}" is not a snapshot id (letters, digits, "-" and "_" only)`);
    this.name = 'InvalidSnapshotIdError';
  }
}

/** Ids reach paths from the CLI and from the CURRENT file, so anything that could escape the lake is refused. */
export function assertSnapshotId(id: string): string {
  if (!snapshotIdPattern.test(id)) throw new InvalidSnapshotIdError(id);
  return id;
}

export function snapshotDir(lakeDir: string, id: string): string {
  return path.join(lakePaths(lakeDir).snapshots, assertSnapshotId(id));
}
