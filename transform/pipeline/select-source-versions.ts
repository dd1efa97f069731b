import type { SourceVersionPayload } from '../../schemas/envelope.ts';
import type { RecordCounts, StagedVersion } from '../../data-lake/staging-store.ts';

/** A source version whose event has been seen and whose staged records are all there. */
export interface UsableVersion {
  source: string;
  version: string;
  eventOffset: bigint;
  event: SourceVersionPayload;
  counts: RecordCounts;
}

export interface VersionSelection {
  /** The latest usable version of each source that has one. */
  chosen: Map<string, UsableVersion>;
  /** Sources with no usable version at all. */
  missing: string[];
  /** Why a newer version of a source was passed over. */
  notices: string[];
}

/**
 * Picks, for each named source, its latest usable version: latest by the position of its source-version
 * event on the log, usable once the records staged for it match the event's counts for every schema.
 */
export function selectSourceVersions(
  staged: readonly StagedVersion[],
  sources: readonly string[],
): VersionSelection {
  const chosen = new Map<string, UsableVersion>();
  const missing: string[] = [];
  const notices: string[] = [];
  for (const source of sources) {
    const announced = staged
      .filter((v): v is UsableVersion => v.source === source && v.event !== null && v.eventOffset !== null)
      .sort((a, b) => (a.eventOffset < b.eventOffset ? 1 : a.eventOffset > b.eventOffset ? -1 : 0));
    const usable = announced.find((v) => countMismatch(v) === null);
    if (usable === undefined) missing.push(source);
    else chosen.set(source, usable);
    for (const newer of announced) {
      if (newer === usable) break;
      notices.push(
        `source ${source} version ${newer.version} is incomplete (${countMismatch(newer)})` +
          (usable ? `; using version ${usable.version}` : ''),
      );
    }
  }
  return { chosen, missing, notices };
}

/** What differs between a version's announced record counts and its staged ones, or null if nothing. */
function countMismatch(version: UsableVersion): string | null {
  const schemas = new Set([...Object.keys(version.event.recordCounts), ...Object.keys(version.counts)]);
  for (const schema of [...schemas].sort()) {
    const expected = version.event.recordCounts[schema] ?? 0;
    const counts = version.counts[schema];
    const staged = counts === undefined ? 0 : counts.accepted + counts.quarantined;
    if (staged !== expected) return `${schema}: ${staged} of ${expected} records staged`;
  }
  return null;
}
