import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Manifest } from '../../schemas/lake.ts';
import { profileTable } from '../audit/table-profile.ts';
import { quoteIdentifier, quoteLiteral } from '../sql-quote.ts';
import type { TableContract } from '../tables/table-contract.ts';
import type { Progress } from '../../lib/progress.ts';

/** Keys named per kind of change in a table's diff. */
export const DIFF_EXAMPLES = 5;

/** One table of two snapshots compared: by its contract's key, or as whole rows when it has none. */
export interface TableDiff {
  table: string;
  /** `unchanged`: the same file (a reused, hard-linked table), reported without being read. */
  status: 'unchanged' | 'changed' | 'added' | 'removed';
  rowsBefore: number;
  rowsAfter: number;
  /** The key rows were matched by (empty: whole rows). */
  key: readonly string[];
  added: number;
  removed: number;
  /** Rows whose key is in both with other values. */
  changed: number;
  examples: { added: string[]; removed: string[]; changed: string[] };
  /** Row counts per partition where they differ (a partitioned table's contract). */
  partitions: { partition: string; before: number; after: number }[];
}

/** A snapshot of the lake as the diff reads it. */
export interface DiffSide {
  id: string;
  dir: string;
  manifest: Manifest;
}

/**
 * What `after` adds, removes and changes relative to `before`, table by table. Tables whose files have
 * the same checksum are unchanged without being read; `contractOf` gives a table's key and partition
 * (a table the code no longer declares is compared as whole rows).
 */
export async function diffSnapshots(
  db: DuckDBConnection,
  before: DiffSide,
  after: DiffSide,
  contractOf: (table: string) => TableContract | undefined,
  progress: Progress,
): Promise<TableDiff[]> {
  const names = [...new Set([...Object.keys(after.manifest.tables), ...Object.keys(before.manifest.tables)])];
  const diffs: TableDiff[] = [];
  for (const table of names) {
    const was = before.manifest.tables[table];
    const now = after.manifest.tables[table];
    const contract = contractOf(table) ?? { key: [], maxDrop: 1 };
    const base = { table, key: contract.key, partitions: [] };
    const none = { added: [], removed: [], changed: [] };
    if (was !== undefined && now !== undefined && was.sha256 === now.sha256) {
      diffs.push({
        ...base,
        status: 'unchanged',
        rowsBefore: was.rows,
        rowsAfter: now.rows,
        added: 0,
        removed: 0,
        changed: 0,
        examples: none,
      });
      continue;
    }
    if (was === undefined || now === undefined) {
      diffs.push({
        ...base,
        status: was === undefined ? 'added' : 'removed',
        rowsBefore: was?.rows ?? 0,
        rowsAfter: now?.rows ?? 0,
        added: now?.rows ?? 0,
        removed: was?.rows ?? 0,
        changed: 0,
        examples: none,
      });
      continue;
    }
    const beforeFile = `read_parquet(${quoteLiteral(path.join(before.dir, was.file))})`;
    const afterFile = `read_parquet(${quoteLiteral(path.join(after.dir, now.file))})`;
    // A changed table of millions of rows takes tens of seconds: the step says which one is compared.
    const step = progress.start(`compare ${table}`, { total: was.rows + now.rows, unit: 'rows' });
    diffs.push({
      ...base,
      status: 'changed',
      rowsBefore: was.rows,
      rowsAfter: now.rows,
      ...(await rowChanges(db, beforeFile, afterFile, contract.key)),
      partitions: await partitionChanges(db, beforeFile, afterFile, contract),
    });
    step.tick(was.rows + now.rows);
    step.done();
  }
  return diffs;
}

/** Rows added, removed and changed, by key, with examples of each. */
async function rowChanges(
  db: DuckDBConnection,
  beforeFile: string,
  afterFile: string,
  key: readonly string[],
): Promise<Pick<TableDiff, 'added' | 'removed' | 'changed' | 'examples'>> {
  // A row's text stands for its values; whole rows are their own key when the table declares none.
  const keyText =
    key.length === 0
      ? 'CAST(t AS VARCHAR)'
      : `concat_ws(' | ', ${key.map((column) => `CAST(t.${quoteIdentifier(column)} AS VARCHAR)`).join(', ')})`;
  const side = (file: string) =>
    `SELECT ${keyText} AS k, md5(CAST(t AS VARCHAR)) AS h, row_number() OVER (PARTITION BY ${keyText} ORDER BY md5(CAST(t AS VARCHAR))) AS n FROM ${file} t`;
  const reader = await db.runAndReadAll(`
    WITH a AS (${side(beforeFile)}), b AS (${side(afterFile)}),
    matched AS (
      SELECT a.k AS before_key, b.k AS after_key, a.h AS before_hash, b.h AS after_hash
      FROM a FULL OUTER JOIN b ON a.k = b.k AND a.n = b.n
    ),
    kinds AS (
      SELECT CASE WHEN before_key IS NULL THEN 'added' WHEN after_key IS NULL THEN 'removed'
                  WHEN before_hash <> after_hash THEN 'changed' END AS kind,
             coalesce(after_key, before_key) AS k
      FROM matched
    )
    SELECT kind, count(*) AS rows, list(k ORDER BY k)[1:${DIFF_EXAMPLES}] AS examples
    FROM kinds WHERE kind IS NOT NULL GROUP BY kind`);
  const result = {
    added: 0,
    removed: 0,
    changed: 0,
    examples: { added: [] as string[], removed: [] as string[], changed: [] as string[] },
  };
  for (const row of reader.getRowObjectsJS()) {
    const kind = row.kind as 'added' | 'removed' | 'changed';
    result[kind] = Number(row.rows);
    result.examples[kind] = (row.examples as string[]).map(String);
  }
  return result;
}

/** Row counts per partition of the contract, where the two snapshots differ, largest change first. */
async function partitionChanges(
  db: DuckDBConnection,
  beforeFile: string,
  afterFile: string,
  contract: TableContract,
): Promise<TableDiff['partitions']> {
  if (contract.partition === undefined) return [];
  const counted = { key: contract.key, partition: contract.partition, maxDrop: contract.maxDrop };
  const [was, now] = [
    await profileTable(db, beforeFile, counted),
    await profileTable(db, afterFile, counted),
  ];
  const partitions = new Set([...was.partitions.keys(), ...now.partitions.keys()]);
  return [...partitions]
    .map((partition) => ({
      partition,
      before: was.partitions.get(partition)?.rows ?? 0,
      after: now.partitions.get(partition)?.rows ?? 0,
    }))
    .filter(({ before, after }) => before !== after)
    .sort(
      (a, b) =>
        Math.abs(b.after - b.before) - Math.abs(a.after - a.before) || a.partition.localeCompare(b.partition),
    );
}
