import { hostname } from 'node:os';
import type { EventLog } from '../eventlog/event-log.ts';

/**
 * A topic on the event log where whoever moves CURRENT (a pipeline run, `lake publish`, `lake rollback`)
 * says so, so replicas on other hosts load the new snapshot within a second instead of at their next poll.
 * An event is only a hint to look: CURRENT in the lake's store stays the truth, so a lost or repeated event
 * changes nothing but how soon a replica looks.
 */
export const PUBLISHED_SNAPSHOTS_TOPIC = 'published-snapshots';
const PUBLISHED_SNAPSHOT_SCHEMA = 'published-snapshot';

export interface PublishedSnapshot {
  id: string;
  previous: string | null;
  /** What moved CURRENT: `pipeline`, `lake publish`, `lake rollback`. */
  by: string;
}

/** Says on the log that CURRENT now names `event.id`. */
export async function announcePublished(log: EventLog, event: PublishedSnapshot): Promise<void> {
  await log.publish(PUBLISHED_SNAPSHOTS_TOPIC, [
    {
      key: 'CURRENT',
      value: {
        schema: PUBLISHED_SNAPSHOT_SCHEMA,
        version: 1,
        key: 'CURRENT',
        source: 'lake',
        sourceVersion: event.id,
        producedAt: new Date().toISOString(),
        payload: event,
      },
    },
  ]);
}

/**
 * Calls `onPublished` for each announcement until `signal` aborts, as a consumer group of its own (every
 * follower hears every event). Resolves when the signal aborts; rejects when the log fails.
 */
export async function followPublished(
  log: EventLog,
  onPublished: (id: string) => void,
  signal: AbortSignal,
): Promise<void> {
  await log.consume({
    groupId: `follow-published-${hostname()}-${process.pid}`,
    topics: [PUBLISHED_SNAPSHOTS_TOPIC],
    signal,
    onBatch: async (records) => {
      for (const record of records) onPublished(record.value.sourceVersion);
    },
  });
}
