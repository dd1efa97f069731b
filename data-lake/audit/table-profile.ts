import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../sql-quote.ts';
import type { TableContract } from '../tables/table-contract.ts';

/** What the anomaly audits compare of a table: per partition, its rows, nulls and measures' medians. */
export interface PartitionProfile {
  rows: number;
  /** Nulls per watched column present in the table. */
  nulls: Record<string, number>;
  /** Per measure: the median of its non-null values (null when none) and how many there are. */
  measures: Record<string, { median: number | null; values: number }>;
}

export interface TableProfile {
  rows: number;
  /** By partition (the contract's `partition`); one entry, `ALL_ROWS`, for a table compared as a whole. */
  partitions: ReadonlyMap<string, PartitionProfile>;
  /** The watched columns the table has (an older snapshot may lack one). */
  columns: ReadonlySet<string>;
}

/** The partition name of a table compared as a whole. */
export const ALL_ROWS = '(all rows)';
/** The partition name of rows whose partition expression is null. */
export const NO_PARTITION = '(none)';

/**
 * Profiles `relation` (a table name or a `read_parquet(…)`) in one query: rows, nulls of the watched
 * columns it has, and the medians of the contract's measures, per partition.
 */
export async function profileTable(
  db: DuckDBConnection,
  relation: string,
  contract: TableContract,
): Promise<TableProfile> {
  const described = await db.runAndReadAll(`DESCRIBE SELECT * FROM ${relation}`);
  const present = new Set(described.getRowObjectsJson().map((row) => String(row.column_name)));
  const watched = (contract.watchNulls ?? []).filter((column) => present.has(column));
  const measures = Object.entries(contract.measures ?? {});
  const selects = [
    `${contract.partition === undefined ? `'${ALL_ROWS}'` : `coalesce(CAST((${contract.partition}) AS VARCHAR), '${NO_PARTITION}')`} AS partition`,
    'count(*) AS rows',
    ...watched.map((column, i) => `count(*) - count(${quoteIdentifier(column)}) AS nulls_${i}`),
    ...measures.flatMap(([, sql], i) => [
      `median(CAST((${sql}) AS DOUBLE)) AS median_${i}`,
      `count(CAST((${sql}) AS DOUBLE)) AS values_${i}`,
    ]),
  ];
  const reader = await db.runAndReadAll(`SELECT ${selects.join(', ')} FROM ${relation} GROUP BY ALL`);
  const partitions = new Map<string, PartitionProfile>();
  let rows = 0;
  for (const row of reader.getRowObjectsJS()) {
    const profile: PartitionProfile = {
      rows: Number(row.rows),
      nulls: Object.fromEntries(watched.map((column, i) => [column, Number(row[`nulls_${i}`])])),
      measures: Object.fromEntries(
        measures.map(([name], i) => {
          const median = row[`median_${i}`];
          return [
            name,
            { median: median === null ? null : Number(median), values: Number(row[`values_${i}`]) },
          ];
        }),
      ),
    };
    partitions.set(String(row.partition), profile);
    rows += profile.rows;
  }
  return { rows, partitions, columns: new Set(watched) };
}
