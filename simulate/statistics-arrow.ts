import { tableFromArrays, tableFromIPC, tableToIPC } from 'apache-arrow';
import { FUEL_UNITS, RESULT_FUELS, SCENARIOS, type ClusterStatisticRow } from '../schemas/rem-data.ts';
import { UPGRADES } from '../schemas/rem.ts';
import type { ClusterIdentity } from '../model/savings/cluster-statistics.ts';

/**
 * A cluster's statistics lines as one Apache Arrow record batch (IPC stream format), the payload of a
 * result on the event log. Columnar and typed: `upgrade`, `fuel` and `scenario` are Int8 positions in
 * UPGRADES, RESULT_FUELS and SCENARIOS; the twelve statistics are Float64; the counts Int32. The cluster's
 * own fields (id, county, fuels) are the same on every line, so they travel once, in the message.
 */

const STATISTICS = [
  'energy_mean',
  'energy_median',
  'energy_p20',
  'energy_p80',
  'emissions_mean',
  'emissions_median',
  'emissions_p20',
  'emissions_p80',
  'cost_mean',
  'cost_median',
  'cost_p20',
  'cost_p80',
] as const;

export function encodeStatistics(rows: readonly ClusterStatisticRow[]): Uint8Array {
  // Columns filled by index: TypedArray.from over an array goes through its iterator and an intermediate
  // list of boxed numbers, garbage in every simulate-stage cluster.
  const column = <T extends Int8Array | Int32Array | Float64Array>(
    into: T,
    of: (row: ClusterStatisticRow) => number,
  ): T => {
    for (let i = 0; i < rows.length; i++) into[i] = of(rows[i]!);
    return into;
  };
  const codes = (values: readonly string[], of: (row: ClusterStatisticRow) => string) =>
    column(new Int8Array(rows.length), (row) => values.indexOf(of(row)));
  const table = tableFromArrays({
    upgrade: codes(UPGRADES, (r) => r.upgrade),
    fuel: codes(RESULT_FUELS, (r) => r.fuel),
    scenario: codes(SCENARIOS, (r) => r.scenario),
    ...Object.fromEntries(
      STATISTICS.map((name) => [name, column(new Float64Array(rows.length), (r) => r[name])]),
    ),
    num_samples: column(new Int32Array(rows.length), (r) => r.num_samples),
    num_excluded_samples: column(new Int32Array(rows.length), (r) => r.num_excluded_samples),
  });
  return tableToIPC(table, 'stream');
}

export function decodeStatistics(cluster: ClusterIdentity, bytes: Uint8Array): ClusterStatisticRow[] {
  const table = tableFromIPC(bytes);
  const column = (name: string): ArrayLike<number> => {
    const vector = table.getChild(name);
    if (!vector) throw new Error(`statistics batch of ${cluster.cluster_id} has no column ${name}`);
    return vector.toArray() as ArrayLike<number>;
  };
  const [upgrades, fuels, scenarios] = ['upgrade', 'fuel', 'scenario'].map(column) as [
    ArrayLike<number>,
    ArrayLike<number>,
    ArrayLike<number>,
  ];
  const statistics = STATISTICS.map(column);
  const samples = column('num_samples');
  const excluded = column('num_excluded_samples');
  const rows: ClusterStatisticRow[] = [];
  for (let i = 0; i < table.numRows; i++) {
    const fuel = RESULT_FUELS[fuels[i]!]!;
    const row: Record<string, unknown> = {
      ...cluster,
      upgrade: UPGRADES[upgrades[i]!],
      fuel,
      scenario: SCENARIOS[scenarios[i]!],
      energy_unit: fuel === 'total' ? 'kWh' : FUEL_UNITS[fuel],
    };
    STATISTICS.forEach((name, k) => (row[name] = statistics[k]![i]));
    row.num_samples = samples[i];
    row.num_excluded_samples = excluded[i];
    rows.push(row as ClusterStatisticRow);
  }
  return rows;
}
