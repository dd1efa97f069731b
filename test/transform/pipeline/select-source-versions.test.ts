import { describe, expect, it } from 'vitest';
import type { StagedVersion } from '../../../data-lake/staging-store.ts';
import { selectSourceVersions } from '../../../transform/pipeline/select-source-versions.ts';

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

describe('selectSourceVersions', () => {
  it('picks the version announced last on the log once all its records are staged', () => {
    const selection = selectSourceVersions(
      [staged('b', 7n, 10, 9, 1), staged('a', 3n, 5, 5)],
      ['incentives'],
    );
    expect(selection.chosen.get('incentives')?.version).toBe('b');
    expect(selection.missing).toEqual([]);
    expect(selection.notices).toEqual([]);
  });

  it('falls back to an older complete version while the newest is incomplete, and says so', () => {
    const selection = selectSourceVersions([staged('a', 3n, 5, 5), staged('b', 12n, 10, 4)], ['incentives']);
    expect(selection.chosen.get('incentives')?.version).toBe('a');
    expect(selection.notices).toEqual([
      'source incentives version b is incomplete (incentive: 4 of 10 records staged); using version a',
    ]);
  });

  it('ignores records of a version whose source-version event was never seen, and reports sources with none', () => {
    const selection = selectSourceVersions([staged('a', null, 0, 5)], ['incentives', 'utility-rates']);
    expect(selection.chosen.size).toBe(0);
    expect(selection.missing).toEqual(['incentives', 'utility-rates']);
  });
});
