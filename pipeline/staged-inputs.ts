import type { Manifest } from '../schemas/lake.ts';
import type { StagingStore } from '../data-lake/staging-store.ts';
import type { QuarantineRow } from '../data-lake/tables/pipeline.ts';
import type { UsableVersion } from './select-source-versions.ts';

/**
 * Accepted payloads per record schema from the chosen source versions (sources in name order, records
 * in key order), each schema read from staging once per run.
 */
export function stagedRecordReader(
  staging: StagingStore,
  chosen: readonly UsableVersion[],
): (schema: string) => Promise<unknown[]> {
  const cache = new Map<string, Promise<unknown[]>>();
  return (schema) => {
    let records = cache.get(schema);
    if (records === undefined) {
      records = Promise.all(
        chosen
          .filter((v) => schema in v.event.recordCounts)
          .map(async (v) => (await staging.accepted(v.source, v.version, schema)).map((r) => r.payload)),
      ).then((lists) => lists.flat());
      cache.set(schema, records);
    }
    return records;
  };
}

/** The quarantined records of the chosen source versions, as rows of the quarantine table. */
export async function stagedQuarantineRows(
  staging: StagingStore,
  chosen: readonly UsableVersion[],
): Promise<QuarantineRow[]> {
  const rows: QuarantineRow[] = [];
  for (const version of chosen) {
    for (const schema of Object.keys(version.counts).sort()) {
      if (version.counts[schema]!.quarantined === 0) continue;
      for (const record of await staging.quarantined(version.source, version.version, schema)) {
        rows.push({ source: version.source, schema, ...record });
      }
    }
  }
  return rows;
}

/** What the manifest records about a source version: where it came from and what was accepted. */
export function manifestSource(version: UsableVersion): Manifest['sources'][string] {
  const { event } = version;
  return {
    kind: event.kind,
    location: event.location,
    version: version.version,
    contentHash: event.contentHash,
    fetchedAt: event.fetchedAt,
    records: Object.fromEntries(
      Object.keys(event.recordCounts)
        .sort()
        .map((schema) => [schema, version.counts[schema] ?? { accepted: 0, quarantined: 0 }]),
    ),
  };
}
