import type { AuditFinding } from '../schemas/lake.ts';

/** The audit found errors, so nothing was published; the message lists each one with examples. */
export class AuditFailedError extends Error {
  constructor(readonly findings: AuditFinding[]) {
    super(formatAuditReport(findings));
    this.name = 'AuditFailedError';
  }
}

export function formatAuditReport(findings: readonly AuditFinding[]): string {
  const errors = findings.filter((f) => f.severity === 'error');
  const lines = [
    `audit blocked the publish: ${errors.length} error finding${errors.length === 1 ? '' : 's'}`,
  ];
  for (const finding of errors) {
    const count = finding.count === undefined ? '' : ` (${finding.count})`;
    lines.push(`  - table ${finding.table}, check ${finding.check}${count}: ${finding.message}`);
    for (const example of finding.examples ?? []) lines.push(`      e.g. ${example}`);
  }
  return lines.join('\n');
}
