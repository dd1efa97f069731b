import type { SourceVersionPayload } from '../schemas/envelope.ts';
import type { RecordCounts, StagedVersion } from '../data-lake/staging-store.ts';

/** A source version whose event has been seen and whose staged records are all there. */
export interface UsableVersion {
  source: string;
  version: string;
  eventOffset: bigint;
  event: SourceVersionPayload;
  counts: RecordCounts;
}

/** A source version a run could not use, and why. */
export interface RejectedVersion {
  source: string;
  /** Null when the source could not be read far enough to know its version. */
  version: string | null;
  reason: string;
}

/** An older version a run used in place of a rejected one, because the run was told it may. */
export interface FallbackVersion {
  source: string;
  version: string;
  /** The rejected version it stands in for. */
  instead: RejectedVersion;
}

export interface VersionSelection {
  /** The version of each source the run builds from. */
  chosen: Map<string, UsableVersion>;
  /** Sources whose version this run read cannot be used, and that no fallback stands in for. */
  rejected: RejectedVersion[];
  /** Published versions used in place of rejected ones. */
  fallbacks: FallbackVersion[];
}

export interface SelectionInput {
  /** Every version staging holds. */
  staged: readonly StagedVersion[];
  /** Per source, the version this run's ingest read, or why it could not read one. */
  read: ReadonlyMap<string, { version: string } | RejectedVersion>;
  /**
   * Per source, the version the published snapshot was built from, to fall back to when the run's own
   * version is rejected; null when the run must not fall back (the default).
   */
  fallback: Readonly<Record<string, string>> | null;
}

/**
 * Picks, for each source, the version this run read, provided all its records are staged (its
 * source-version event seen, and staged counts equal to the event's). A version that is not usable is
 * rejected, never replaced by whatever older version staging still holds; only when the run is given
 * published versions to fall back to does it use the published one instead, and says so.
 */
export function selectSourceVersions({ staged, read, fallback }: SelectionInput): VersionSelection {
  const chosen = new Map<string, UsableVersion>();
  const rejected: RejectedVersion[] = [];
  const fallbacks: FallbackVersion[] = [];
  for (const [source, outcome] of read) {
    const own = 'reason' in outcome ? outcome : stagedVersion(staged, source, outcome.version);
    if (!('reason' in own)) {
      chosen.set(source, own);
      continue;
    }
    const published = fallback?.[source];
    if (published === undefined) {
      rejected.push(own);
      continue;
    }
    const standIn = stagedVersion(staged, source, published);
    if ('reason' in standIn) {
      rejected.push({
        ...own,
        reason: `${own.reason}; the published version cannot stand in for it: ${standIn.reason}`,
      });
    } else {
      chosen.set(source, standIn);
      fallbacks.push({ source, version: published, instead: own });
    }
  }
  return { chosen, rejected, fallbacks };
}

/** The staged version, if it can be built from: its source-version event seen and all its records staged. */
function stagedVersion(
  staged: readonly StagedVersion[],
  source: string,
  version: string,
): UsableVersion | RejectedVersion {
  const found = staged.find(
    (v): v is UsableVersion =>
      v.source === source && v.version === version && v.event !== null && v.eventOffset !== null,
  );
  if (found === undefined) {
    return {
      source,
      version,
      reason: `version ${version} is not staged (its source-version event is missing)`,
    };
  }
  const mismatch = countMismatch(found);
  return mismatch === null
    ? found
    : { source, version, reason: `version ${version} is staged incompletely (${mismatch})` };
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
