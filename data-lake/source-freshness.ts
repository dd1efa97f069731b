import { sourceFreshnessFileSchema, type SourceFreshness } from '../schemas/lake.ts';
import type { Lake } from './lake.ts';

/** A source's read in a run: its content, or why it could not be read. */
export type SourceRead =
  | { source: string; contentHash: string; staleAfterDays?: number | null }
  | { source: string; failure: string };

const FRESHNESS_KEY = 'sources.json';

/** When each source of the lake last changed and was last read (sources.json in the lake's store). */
export async function readSourceFreshness(lake: Lake): Promise<Record<string, SourceFreshness>> {
  return (await readFreshness(lake)).sources;
}

async function readFreshness(lake: Lake) {
  const object = await lake.store.get(FRESHNESS_KEY);
  return {
    sources:
      object === null
        ? {}
        : sourceFreshnessFileSchema.parse(JSON.parse(object.body.toString('utf8'))).sources,
    version: object?.version ?? null,
  };
}

/** The freshness after a run's reads (a pure step of recordSourceReads). */
export function afterReads(
  known: Readonly<Record<string, SourceFreshness>>,
  reads: readonly SourceRead[],
  now: Date,
): Record<string, SourceFreshness> {
  const at = now.toISOString();
  const next = { ...known };
  for (const read of reads) {
    const was = known[read.source];
    if ('failure' in read) {
      // A source never read successfully has nothing to be stale against yet: its run failed, and says why.
      if (was !== undefined) next[read.source] = { ...was, failedAt: at, failure: read.failure };
      continue;
    }
    next[read.source] = {
      contentHash: read.contentHash,
      changedAt: was?.contentHash === read.contentHash ? was.changedAt : at,
      readAt: at,
      ...(read.staleAfterDays === undefined ? {} : { staleAfterDays: read.staleAfterDays }),
    };
  }
  return next;
}

/** Records a run's reads in the lake's source freshness. */
export async function recordSourceReads(lake: Lake, reads: readonly SourceRead[], now: Date): Promise<void> {
  // Compare-and-swap, again on a race: runs of pipelines on two hosts each add their reads.
  for (;;) {
    const { sources, version } = await readFreshness(lake);
    const text = `${JSON.stringify({ sources: afterReads(sources, reads, now) }, null, 2)}\n`;
    if (await lake.store.putIfVersion(FRESHNESS_KEY, text, version)) return;
  }
}

export interface StaleSource {
  source: string;
  reason: 'unchanged' | 'unread';
  since: string;
  days: number;
}

const DAY_MS = 86_400_000;

/**
 * The sources past their age: unchanged for longer than their `staleAfterDays` (else `defaultDays`; null:
 * never, a file shipped with the project changes with the code), or not read successfully for longer
 * than it (else `defaultDays`).
 */
export function staleSources(
  freshness: Readonly<Record<string, SourceFreshness>>,
  defaultDays: number,
  now: Date,
): StaleSource[] {
  const daysSince = (at: string) => Math.floor((now.getTime() - Date.parse(at)) / DAY_MS);
  return Object.entries(freshness).flatMap(([source, state]): StaleSource[] => {
    const unchanged = state.staleAfterDays === undefined ? defaultDays : state.staleAfterDays;
    const unread = state.staleAfterDays ?? defaultDays;
    const stale: StaleSource[] = [];
    if (unchanged !== null && daysSince(state.changedAt) > unchanged)
      stale.push({ source, reason: 'unchanged', since: state.changedAt, days: daysSince(state.changedAt) });
    if (daysSince(state.readAt) > unread)
      stale.push({ source, reason: 'unread', since: state.readAt, days: daysSince(state.readAt) });
    return stale;
  });
}
