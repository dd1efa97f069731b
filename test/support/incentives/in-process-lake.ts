import type { SourceRecord } from '../../../ingest/source.ts';
import type { AuditFinding } from '../../../schemas/lake.ts';
import { recordSchemas } from '../../../schemas/records/index.ts';
import type { LakeTable } from '../../../transform/tables/lake-table.ts';
import { incentivesLakeTables } from '../../../transform/tables/incentives/index.ts';
import { inMemoryBuildContext } from '../in-memory-build-context.ts';

/**
 * Builds the incentives tables in memory from parsed records, validating each record with its schema as
 * the pipeline does (bad ones are dropped) and every row with its table's row schema. It stands in for
 * the pipeline where a test needs tables but not Parquet, DuckDB or an event log.
 */
export async function buildIncentiveTablesInProcess(
  records: SourceRecord[],
): Promise<{ tables: Map<string, Record<string, unknown>[]>; audit: AuditFinding[] }> {
  const schemas = new Map(recordSchemas.map((s) => [s.name, s.schema]));
  const accepted = new Map<string, unknown[]>();
  for (const record of records) {
    const parsed = schemas.get(record.schema)?.safeParse(record.payload);
    if (parsed?.success)
      (accepted.get(record.schema) ?? accepted.set(record.schema, []).get(record.schema)!).push(parsed.data);
  }
  const tables = new Map<string, Record<string, unknown>[]>();
  const ctx = inMemoryBuildContext(
    (schema) => [...(accepted.get(schema) ?? [])],
    (name) => tables.get(name) ?? [],
  );
  const audit: AuditFinding[] = [];
  for (const table of incentivesLakeTables as LakeTable[]) {
    const rows = await table.build(ctx);
    for (const row of rows) table.row.parse(row);
    tables.set(table.name, rows);
    audit.push(...((await table.audit?.(rows, ctx)) ?? []));
  }
  return { tables, audit };
}
