import type { AuditFinding } from '../../../schemas/lake.ts';
import type { ClusterStatisticRow } from '../../../schemas/rem-data.ts';
import type { RemClusterRow } from '../../../schemas/rem-stage.ts';
import { toTenThousandths } from '../../../simulate/savings/distribution.ts';
import { offendersFinding } from '../audit-findings.ts';
import type { BuildContext } from '../lake-table.ts';

/** The stage's checks all block a publish: statistics that break them would be served wrong. */
const errorIf = (table: string, check: string, message: string, offenders: readonly string[]) =>
  offendersFinding(table, check, 'error', message, offenders);

function repeated(keys: readonly string[]): string[] {
  const seen = new Set<string>();
  return keys.filter((key) => seen.has(key) || (seen.add(key), false));
}

export function auditClusters(rows: RemClusterRow[]): AuditFinding[] {
  const table = 'rem_clusters';
  return [
    ...errorIf(
      table,
      'cluster_once',
      'clusters that appear more than once',
      repeated(rows.map((r) => r.cluster_id)),
    ),
    ...errorIf(
      table,
      'supported_has_samples',
      'clusters supported without samples, or unsupported without a reason',
      rows
        .filter((r) =>
          r.supported ? r.samples === 0 || r.reason !== null : r.samples !== 0 || r.reason === null,
        )
        .map((r) => r.cluster_id),
    ),
    ...errorIf(
      table,
      'excluded_within_samples',
      'clusters that exclude more homes than they drew',
      rows
        .filter((r) => Object.values(r.excluded_samples).some((n) => n > r.samples))
        .map((r) => r.cluster_id),
    ),
  ];
}

export async function auditClusterStatistics(
  rows: ClusterStatisticRow[],
  ctx: BuildContext,
): Promise<AuditFinding[]> {
  const table = 'rem_cluster_statistics';
  const line = (r: ClusterStatisticRow) => `${r.cluster_id} ${r.upgrade} ${r.fuel} ${r.scenario}`;
  const byLine = new Map(rows.map((r) => [line(r), r]));
  const identity: string[] = [];
  for (const r of rows) {
    if (r.scenario !== 'upgrade') continue;
    const baseline = byLine.get(line({ ...r, scenario: 'baseline' }));
    const delta = byLine.get(line({ ...r, scenario: 'delta' }));
    for (const metric of ['energy', 'emissions', 'cost'] as const) {
      const key = `${metric}_mean` as const;
      if (
        !baseline ||
        !delta ||
        toTenThousandths(r[key]) !== toTenThousandths(baseline[key]) + toTenThousandths(delta[key])
      )
        identity.push(`${line(r)} ${metric}`);
    }
  }
  const clusters = new Map((await ctx.table<RemClusterRow>('rem_clusters')).map((c) => [c.cluster_id, c]));
  const counted = new Set(rows.map((r) => r.cluster_id));
  return [
    ...errorIf(table, 'line_once', 'lines that appear more than once', repeated(rows.map(line))),
    ...errorIf(
      table,
      'mean_identity',
      'upgrade means that differ from baseline + delta (in ten-thousandths)',
      identity,
    ),
    ...errorIf(
      table,
      'energy_non_negative',
      'baseline or upgrade lines with negative energy',
      rows
        .filter((r) => r.scenario !== 'delta' && Math.min(r.energy_mean, r.energy_p20, r.energy_median) < 0)
        .map(line),
    ),
    ...errorIf(
      table,
      'samples_of_cluster',
      'lines that count other homes than their cluster drew',
      rows
        .filter((r) => r.num_samples + r.num_excluded_samples !== clusters.get(r.cluster_id)?.samples)
        .map(line),
    ),
    ...errorIf(
      table,
      'every_supported_cluster',
      'supported clusters without statistics',
      [...clusters.values()]
        .filter((c) => c.supported && !counted.has(c.cluster_id))
        .map((c) => c.cluster_id),
    ),
  ];
}
