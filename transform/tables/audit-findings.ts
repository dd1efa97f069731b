import type { DuckDBConnection } from '@duckdb/node-api';
import type { AuditFinding } from '../../schemas/lake.ts';

/** At most this many offenders are named in a finding (the count says how many there are). */
const MAX_EXAMPLES = 20;

/** One finding of a table's check naming its offenders, or none when there are none. */
export function offendersFinding(
  table: string,
  check: string,
  severity: AuditFinding['severity'],
  message: string,
  offenders: readonly string[],
): AuditFinding[] {
  if (offenders.length === 0) return [];
  return [
    { table, check, severity, message, count: offenders.length, examples: offenders.slice(0, MAX_EXAMPLES) },
  ];
}

/**
 * offendersFinding over a query too large to read back whole: `offenders` is SQL yielding `offender`
 * (text) and `position` (order); each offender is named once, the count says how many there are.
 */
export async function sqlOffendersFinding(
  db: DuckDBConnection,
  table: string,
  check: string,
  severity: AuditFinding['severity'],
  message: string,
  offenders: string,
): Promise<AuditFinding[]> {
  const reader = await db.runAndReadAll(
    `SELECT offender, count(*) OVER () AS count FROM (
       SELECT offender, min(position) AS position FROM (${offenders}) GROUP BY offender
     ) ORDER BY position LIMIT ${MAX_EXAMPLES}`,
  );
  const rows = reader.getRowObjectsJS() as { offender: string; count: bigint | number }[];
  if (rows.length === 0) return [];
  return [
    {
      table,
      check,
      severity,
      message,
      count: Number(rows[0]!.count),
      examples: rows.map((row) => row.offender),
    },
  ];
}
