import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { anomalyFindings } from '../data-lake/audit/anomaly-audit.ts';
import { profileTable } from '../data-lake/audit/table-profile.ts';
import { quoteIdentifier, quoteLiteral } from '../data-lake/sql-quote.ts';
import type { AuditFinding, Manifest } from '../schemas/lake.ts';
import type { AnyLakeTable } from '../transform/tables/lake-table.ts';
import type { RunLineage } from './lineage.ts';

/** The snapshot a run compares with: CURRENT's manifest and directory. */
export interface PublishedSnapshot {
  manifest: Manifest;
  dir: string;
}

/**
 * The write–audit–publish step: each table the run built that the published snapshot also has is profiled
 * in both (rows, nulls and medians per partition, as its contract declares) and compared. Tables taken
 * over unchanged are not compared (the same file), and a first snapshot has nothing to compare with.
 */
export async function auditAgainstPublished(
  db: DuckDBConnection,
  built: readonly AnyLakeTable[],
  published: PublishedSnapshot | null,
  lineage: RunLineage,
): Promise<AuditFinding[]> {
  if (published === null) return [];
  const findings: AuditFinding[] = [];
  for (const table of built) {
    const entry = published.manifest.tables[table.name];
    if (entry === undefined) continue;
    const file = quoteLiteral(path.join(published.dir, entry.file));
    findings.push(
      ...anomalyFindings({
        table: table.name,
        contract: table.contract,
        before: await profileTable(db, `read_parquet(${file})`, table.contract),
        after: await profileTable(db, quoteIdentifier(table.name), table.contract),
        settingsBefore: entry.settings ?? {},
        settingsAfter: lineage.tables.get(table.name)?.settings ?? {},
      }),
    );
  }
  return findings;
}
