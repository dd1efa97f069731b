import type { AuditFinding } from '../../../schemas/lake.ts';
import type { ClusterStatisticRow } from '../../../schemas/rem-data.ts';
import type { RemClusterRow } from '../../../schemas/rem-stage.ts';
import { toTenThousandths } from '../../../simulate/savings/distribution.ts';
import type { BuildContext } from '../lake-table.ts';

/** An error finding for `check` when any `failures` were found (up to 5 of them as examples). */
function errorIf(table: string, check: string, message: string, failures: readonly string[]): AuditFinding[] {
  if (failures.length === 0) return [];
  return [
    {
      table,
      check,
      severity: 'error',
      message: `${failures.length} ${message}`,
      count: failures.length,
      examples: failures.slice(0, 5),
    },
  ];
}

function repeated(keys: readonly string[]): string[] {
  const seen = new Set<string>();
  return keys.filter((key) => seen.has(key) || (seen.add(key), false));
}

export function auditClusters(rows: RemClusterRow[]): AuditFinding[] {
  const table = 'rem_clusters';
  return [
    ...errorIf(
      table,
      'cluster-once',
      'clusters appear more than once',
      repeated(rows.map((r) => r.cluster_id)),
    ),
    ...errorIf(
      table,
      'supported-has-samples',
      'clusters are supported without samples, or unsupported without a reason',
      rows
        .filter((r) =>
          r.supported ? r.samples === 0 || r.reason !== null : r.samples !== 0 || r.reason === null,
        )
        .map((r) => r.cluster_id),
    ),
    ...errorIf(
      table,
      'excluded-within-samples',
      'clusters exclude more homes than they drew',
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
    ...errorIf(table, 'line-once', 'lines appear more than once', repeated(rows.map(line))),
    ...errorIf(table, 'mean-identity', 'upgrade means differ from baseline + delta', identity),
    ...errorIf(
      table,
      'energy-non-negative',
      'baseline or upgrade lines have negative energy',
      rows
        .filter((r) => r.scenario !== 'delta' && Math.min(r.energy_mean, r.energy_p20, r.energy_median) < 0)
        .map(line),
    ),
    ...errorIf(
      table,
      'samples-of-cluster',
      'lines count other homes than their cluster drew',
      rows
        .filter((r) => r.num_samples + r.num_excluded_samples !== clusters.get(r.cluster_id)?.samples)
        .map(line),
    ),
    ...errorIf(
      table,
      'every-supported-cluster',
      'supported clusters have no statistics',
      [...clusters.values()]
        .filter((c) => c.supported && !counted.has(c.cluster_id))
        .map((c) => c.cluster_id),
    ),
  ];
}
