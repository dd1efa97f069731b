import type { AuditFinding } from '../../../schemas/lake.ts';
import type { RemClusterRow } from '../../../schemas/rem-stage.ts';
import { RESULT_FUELS, SCENARIOS } from '../../../schemas/rem-data.ts';
import { UPGRADES } from '../../../schemas/rem.ts';
import { quoteLiteral } from '../../../data-lake/sql-quote.ts';
import { offendersFinding, sqlOffendersFinding } from '../audit-findings.ts';
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

const inList = (values: readonly string[]) => `[${values.map(quoteLiteral).join(', ')}]`;

/**
 * The order of `rem_cluster_statistics`: cluster by cluster, each cluster's lines as the simulator
 * writes them (upgrades, then fuels, then scenarios, each in its declared order).
 */
export const statisticsLineOrder = [
  'cluster_id',
  `list_position(${inList(UPGRADES)}, upgrade)`,
  `list_position(${inList(RESULT_FUELS)}, fuel)`,
  `list_position(${inList(SCENARIOS)}, scenario)`,
].join(', ');

/** A line's name in findings, e.g. `44007|fuel_oil|- hvac__heat_pump_seer18_hspf10 total upgrade`. */
const line = (t: string) => `concat_ws(' ', ${t}.cluster_id, ${t}.upgrade, ${t}.fuel, ${t}.scenario)`;

/**
 * Checks of `rem_cluster_statistics`, in SQL over the built table (nationally millions of lines, never
 * held as rows). Each check's query yields its offenders with their position, first offender first.
 */
export async function auditClusterStatistics(ctx: Pick<BuildContext, 'db'>): Promise<AuditFinding[]> {
  const table = 'rem_cluster_statistics';
  const findings: AuditFinding[] = [];
  const check = async (name: string, message: string, offenders: string) => {
    findings.push(...(await sqlOffendersFinding(ctx.db, table, name, 'error', message, offenders)));
  };
  await check(
    'line_once',
    'lines that appear more than once',
    `SELECT ${line('s')} AS offender, rowid AS position FROM ${table} s
     QUALIFY row_number() OVER (PARTITION BY cluster_id, upgrade, fuel, scenario ORDER BY rowid) > 1`,
  );
  // Math.round, as the simulator rounds: floor(x + 0.5).
  const tenThousandths = (column: string) => `floor(${column} * 10000 + 0.5)`;
  await check(
    'mean_identity',
    'upgrade means that differ from baseline + delta (in ten-thousandths)',
    `SELECT ${line('u')} || ' ' || metric AS offender,
            u.rowid * 3 + m AS position
     FROM ${table} u
     CROSS JOIN (VALUES ('energy', 0), ('emissions', 1), ('cost', 2)) metrics(metric, m)
     LEFT JOIN ${table} b ON b.cluster_id = u.cluster_id AND b.upgrade = u.upgrade AND b.fuel = u.fuel
       AND b.scenario = 'baseline'
     LEFT JOIN ${table} d ON d.cluster_id = u.cluster_id AND d.upgrade = u.upgrade AND d.fuel = u.fuel
       AND d.scenario = 'delta'
     WHERE u.scenario = 'upgrade' AND (b.cluster_id IS NULL OR d.cluster_id IS NULL OR
       CASE metric
         WHEN 'energy' THEN ${tenThousandths('u.energy_mean')} <> ${tenThousandths('b.energy_mean')} + ${tenThousandths('d.energy_mean')}
         WHEN 'emissions' THEN ${tenThousandths('u.emissions_mean')} <> ${tenThousandths('b.emissions_mean')} + ${tenThousandths('d.emissions_mean')}
         ELSE ${tenThousandths('u.cost_mean')} <> ${tenThousandths('b.cost_mean')} + ${tenThousandths('d.cost_mean')}
       END)`,
  );
  await check(
    'energy_non_negative',
    'baseline or upgrade lines with negative energy',
    `SELECT ${line('s')} AS offender, rowid AS position FROM ${table} s
     WHERE scenario <> 'delta' AND least(energy_mean, energy_p20, energy_median) < 0`,
  );
  await check(
    'samples_of_cluster',
    'lines that count other homes than their cluster drew',
    `SELECT ${line('s')} AS offender, s.rowid AS position
     FROM ${table} s LEFT JOIN rem_clusters c ON c.cluster_id = s.cluster_id
     WHERE c.samples IS DISTINCT FROM s.num_samples + s.num_excluded_samples`,
  );
  await check(
    'every_supported_cluster',
    'supported clusters without statistics',
    `SELECT cluster_id AS offender, rowid AS position FROM rem_clusters c
     WHERE supported AND NOT EXISTS (SELECT 1 FROM ${table} s WHERE s.cluster_id = c.cluster_id)`,
  );
  return findings;
}
