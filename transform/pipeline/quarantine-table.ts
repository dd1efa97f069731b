import { z } from 'zod';
import type { LakeTable } from '../tables/lake-table.ts';

export const quarantineRowSchema = z.object({
  source: z.string(),
  schema: z.string(),
  key: z.string(),
  /** The zod issues that rejected the record. */
  reason: z.string(),
  /** The record's payload as it arrived (JSON). */
  payload: z.unknown(),
});
export type QuarantineRow = z.infer<typeof quarantineRowSchema>;

export const QUARANTINE_TABLE = 'quarantine';

/**
 * The pipeline's own table of records that failed validation in the source versions a snapshot uses,
 * so analysts can see what was left out and why.
 */
export function quarantineTable(rows: () => Promise<QuarantineRow[]>, recordSchemas: string[]): LakeTable {
  return {
    name: QUARANTINE_TABLE,
    schemaVersion: 1,
    code: [import.meta.url],
    description: 'Source records that failed their record schema and were left out of every other table',
    row: quarantineRowSchema,
    inputs: { records: recordSchemas, tables: [] },
    build: rows,
  };
}
