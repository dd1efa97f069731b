import { describe, expect, it } from 'vitest';
import type { StagedVersion } from '../../data-lake/staging-store.ts';
import { selectSourceVersions, type RejectedVersion } from '../../pipeline/select-source-versions.ts';

function staged(
  version: string,
  eventOffset: bigint | null,
  announced: number,
  accepted: number,
  quarantined = 0,
): StagedVersion {
  return {
    source: 'incentives',
    version,
    eventOffset,
    event:
      eventOffset === null
        ? null
        : {
            source: 'incentives',
            kind: 'rewiring-america-open-data',
            location: '/data/incentives',
            version,
            contentHash: `hash-${version}`,
            fetchedAt: '2026-11-21T16:00:00.000Z',
            recordCounts: { incentive: announced },
            files: [],
          },
    counts: { incentive: { accepted, quarantined } },
  };
}

const read = (outcome: { version: string } | RejectedVersion) => new Map([['incentives', outcome]]);

describe('selectSourceVersions', () => {
  it('picks the version the run read once all its records are staged, quarantined ones included', () => {
    const selection = selectSourceVersions({
      staged: [staged('b', 7n, 10, 9, 1), staged('a', 3n, 5, 5)],
      read: read({ version: 'b' }),
      fallback: null,
    });
    expect(selection.chosen.get('incentives')?.version).toBe('b');
    expect(selection.rejected).toEqual([]);
    expect(selection.fallbacks).toEqual([]);
  });

  it('picks the version the run read even when the log announced a newer one (an earlier, failed run)', () => {
    const selection = selectSourceVersions({
      staged: [staged('a', 3n, 5, 5), staged('refused', 9n, 6, 6)],
      read: read({ version: 'a' }),
      fallback: null,
    });
    expect(selection.chosen.get('incentives')?.version).toBe('a');
  });

  it('rejects an incomplete version instead of falling back to an older complete one', () => {
    const selection = selectSourceVersions({
      staged: [staged('a', 3n, 5, 5), staged('b', 12n, 10, 4)],
      read: read({ version: 'b' }),
      fallback: null,
    });
    expect(selection.chosen.size).toBe(0);
    expect(selection.rejected).toEqual([
      {
        source: 'incentives',
        version: 'b',
        reason: 'version b is staged incompletely (incentive: 4 of 10 records staged)',
      },
    ]);
  });

  it('rejects a version whose source-version event was never seen', () => {
    const selection = selectSourceVersions({
      staged: [staged('a', null, 0, 5)],
      read: read({ version: 'a' }),
      fallback: null,
    });
    expect(selection.rejected).toEqual([
      {
        source: 'incentives',
        version: 'a',
        reason: 'version a is not staged (its source-version event is missing)',
      },
    ]);
  });

  it('passes on what ingest rejected', () => {
    const unreadable = {
      source: 'incentives',
      version: null,
      reason: 'Source "incentives" (/x): Malformed …',
    };
    const selection = selectSourceVersions({
      staged: [staged('a', 3n, 5, 5)],
      read: read(unreadable),
      fallback: null,
    });
    expect(selection.rejected).toEqual([unreadable]);
    expect(selection.chosen.size).toBe(0);
  });

  it('falls back to the published version only when given one, and says which it stands in for', () => {
    const selection = selectSourceVersions({
      staged: [staged('published', 3n, 5, 5), staged('refused', 8n, 5, 5), staged('b', 12n, 10, 4)],
      read: read({ version: 'b' }),
      fallback: { incentives: 'published' },
    });
    expect(selection.chosen.get('incentives')?.version).toBe('published');
    expect(selection.rejected).toEqual([]);
    expect(selection.fallbacks).toEqual([
      {
        source: 'incentives',
        version: 'published',
        instead: {
          source: 'incentives',
          version: 'b',
          reason: 'version b is staged incompletely (incentive: 4 of 10 records staged)',
        },
      },
    ]);
  });

  it('rejects the version still when the published one cannot stand in for it either', () => {
    const selection = selectSourceVersions({
      staged: [staged('b', 12n, 10, 4)],
      read: read({ version: 'b' }),
      fallback: { incentives: 'pruned' },
    });
    expect(selection.rejected).toEqual([
      {
        source: 'incentives',
        version: 'b',
        reason:
          'version b is staged incompletely (incentive: 4 of 10 records staged); the published version cannot ' +
          'stand in for it: version pruned is not staged (its source-version event is missing)',
      },
    ]);
  });
});
