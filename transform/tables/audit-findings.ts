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
