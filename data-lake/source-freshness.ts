import { readFile } from 'node:fs/promises';
import { writeFileAtomically } from '../lib/fs/durable-file.ts';
import { sourceFreshnessFileSchema, type SourceFreshness } from '../schemas/lake.ts';
import { lakePaths } from './lake-paths.ts';

/** A source's read in a run: its content, or why it could not be read. */
export type SourceRead =
  | { source: string; contentHash: string; staleAfterDays?: number | null }
  | { source: string; failure: string };

/** When each source of the lake last changed and was last read (LAKE_DIR/sources.json). */
export async function readSourceFreshness(lakeDir: string): Promise<Record<string, SourceFreshness>> {
  let text: string;
  try {
    text = await readFile(lakePaths(lakeDir).sourceFreshness, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  return sourceFreshnessFileSchema.parse(JSON.parse(text)).sources;
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

/** Records a run's reads (under the lake lock, which a run holds). */
export async function recordSourceReads(
  lakeDir: string,
  reads: readonly SourceRead[],
  now: Date,
): Promise<void> {
  const sources = afterReads(await readSourceFreshness(lakeDir), reads, now);
  await writeFileAtomically(lakePaths(lakeDir).sourceFreshness, `${JSON.stringify({ sources }, null, 2)}\n`);
}

/** A source unchanged, or unread, for longer than it may be. */
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
