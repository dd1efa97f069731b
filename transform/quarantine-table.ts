import type { RecordSchema } from '../schemas/record-schema.ts';
import { QUARANTINE, type QuarantineRow } from '../data-lake/tables/pipeline.ts';
import type { LakeTable } from './tables/lake-table.ts';

/**
 * The pipeline's own table of records that failed validation in the source versions a snapshot uses,
 * so analysts can see what was left out and why.
 */
export function quarantineTable(
  rows: () => Promise<QuarantineRow[]>,
  recordSchemas: readonly RecordSchema[],
): LakeTable<QuarantineRow> {
  return {
    ...QUARANTINE,
    schemaVersion: 1,
    code: [import.meta.url],
    description: 'Source records that failed their record schema and were left out of every other table',
    inputs: { records: recordSchemas, tables: [] },
    build: rows,
  };
}
