import { z } from 'zod';
import { whole } from './table-contract.ts';
import { tableRef } from './table-ref.ts';

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

/**
 * The pipeline's own table of records that failed validation in the source versions a snapshot uses, so
 * analysts can see what was left out and why.
 */
export const QUARANTINE = tableRef(
  'quarantine',
  quarantineRowSchema,
  // Fewer quarantined records is good news: any share may go.
  whole(['source', 'schema', 'key'], 1),
);
