import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBDataChunk,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { Column, ColumnType } from './column-types.ts';
import { quoteIdentifier } from './sql-quote.ts';

/** DuckDB's standard vector size: one data chunk per this many rows. */
const CHUNK_ROWS = 2048;

const vectorTypes: Record<ColumnType, DuckDBType> = {
  VARCHAR,
  BIGINT,
  DOUBLE,
  BOOLEAN,
  // JSON is VARCHAR with an alias: its vectors hold the JSON text.
  JSON: VARCHAR,
};

/**
 * Creates a DuckDB table with the given columns and bulk-loads the rows through the appender, one data
 * chunk at a time (row-by-row inserts are two orders of magnitude slower). Rows must already be valid
 * for their zod row schema; missing and null values become SQL NULL.
 */
export async function loadTable(
  db: DuckDBConnection,
  table: string,
  columns: readonly Column[],
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const definitions = columns.map(
    (c) => `${quoteIdentifier(c.name)} ${c.type}${c.nullable ? '' : ' NOT NULL'}`,
  );
  await db.run(`CREATE TABLE ${quoteIdentifier(table)} (${definitions.join(', ')})`);
  if (rows.length === 0) return;
  const types = columns.map((c) => vectorTypes[c.type]);
  const appender = await db.createAppender(table);
  try {
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, rows.length - start);
      const values = columns.map((column) => {
        const vector = new Array<DuckDBValue>(count);
        for (let i = 0; i < count; i++) vector[i] = toDuckDBValue(rows[start + i]![column.name], column.type);
        return vector;
      });
      const chunk = DuckDBDataChunk.create(types, count);
      chunk.setColumns(values);
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

function toDuckDBValue(value: unknown, type: ColumnType): DuckDBValue {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'BIGINT':
      return BigInt(value as number);
    case 'JSON':
      return JSON.stringify(value);
    default:
      return value as string | number | boolean;
  }
}
