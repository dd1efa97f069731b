import { setTimeout as delay } from 'node:timers/promises';
import type { EventLog } from '../../eventlog/event-log.ts';
import type { Lake } from '../../data-lake/lake.ts';
import { lakePaths } from '../../data-lake/lake-paths.ts';
import { followPublished } from '../../data-lake/published-snapshots.ts';
import { readCurrent } from '../../data-lake/snapshot-reader.ts';
import { openSnapshotInChildProcess } from './child-process-snapshot-reader.ts';
import type { SnapshotSource } from './snapshot-holder.ts';

/** How long after the log fails following it is tried again (the poll covers meanwhile). */
const FOLLOW_RETRY_MS = 5_000;

/**
 * The lake's CURRENT pointer and snapshots, as the snapshot holder reads them: a remote lake's snapshot is
 * downloaded and checked into this machine's cache first. Tables are read in a child process, so the
 * serving process never holds DuckDB's memory. With `announcements` (the event log, on Kafka), the
 * published-snapshots topic is followed too, so a publish is seen within a second of it.
 */
export function lakeSnapshotSource(
  lake: Lake,
  { announcements }: { announcements?: () => Promise<EventLog> } = {},
): SnapshotSource {
  const inPlace = lake.store.localPath('CURRENT');
  return {
    currentId: () => readCurrent(lake),
    open: (id) => openSnapshotInChildProcess(lake, id),
    // In a directory lake CURRENT is replaced by a rename at its root, which a directory watch reports.
    ...(inPlace === null ? {} : { watchDir: lakePaths(lake.workDir).root }),
    ...(announcements === undefined
      ? {}
      : { follow: (onPublished, onState) => follow(announcements, onPublished, onState) }),
  };
}

function follow(
  openLog: () => Promise<EventLog>,
  onPublished: (id: string) => void,
  onState: (error: Error | null) => void,
): () => void {
  const stop = new AbortController();
  void (async () => {
    while (!stop.signal.aborted) {
      let log: EventLog | undefined;
      try {
        log = await openLog();
        onState(null);
        await followPublished(log, onPublished, stop.signal);
      } catch (error) {
        onState(error as Error);
        await delay(FOLLOW_RETRY_MS, undefined, { signal: stop.signal }).catch(() => undefined);
      } finally {
        await log?.close().catch(() => undefined);
      }
    }
  })();
  return () => stop.abort();
}
