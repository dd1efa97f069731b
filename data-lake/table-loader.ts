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
  const loader = await openTableLoader(db, table, columns);
  try {
    loader.append(rows);
    loader.flush();
  } finally {
    loader.close();
  }
}

export interface TableLoader {
  /** Appends rows; they are handed to DuckDB a full data chunk at a time. */
  append(rows: readonly Record<string, unknown>[]): void;
  /** Hands the rows still buffered to DuckDB. */
  flush(): void;
  close(): void;
}

/**
 * Creates a DuckDB table and returns a loader that appends rows to it in as many calls as the caller
 * likes (a table built in chunks), holding at most one data chunk of them itself.
 */
export async function openTableLoader(
  db: DuckDBConnection,
  table: string,
  columns: readonly Column[],
): Promise<TableLoader> {
  const definitions = columns.map(
    (c) => `${quoteIdentifier(c.name)} ${c.type}${c.nullable ? '' : ' NOT NULL'}`,
  );
  await db.run(`CREATE TABLE ${quoteIdentifier(table)} (${definitions.join(', ')})`);
  const types = columns.map((c) => vectorTypes[c.type]);
  const appender = await db.createAppender(table);
  let pending: (readonly Record<string, unknown>[])[] = [];
  let pendingRows = 0;
  const appendChunk = (rows: readonly Record<string, unknown>[]): void => {
    const values = columns.map((column) => {
      const vector = new Array<DuckDBValue>(rows.length);
      for (let i = 0; i < rows.length; i++) vector[i] = toDuckDBValue(rows[i]![column.name], column.type);
      return vector;
    });
    const chunk = DuckDBDataChunk.create(types, rows.length);
    chunk.setColumns(values);
    appender.appendDataChunk(chunk);
  };
  const drain = (all: boolean): void => {
    const rows = pending.flat();
    let start = 0;
    for (; rows.length - start >= CHUNK_ROWS || (all && start < rows.length); start += CHUNK_ROWS)
      appendChunk(rows.slice(start, start + CHUNK_ROWS));
    pending = start < rows.length ? [rows.slice(start)] : [];
    pendingRows = rows.length - start;
  };
  return {
    append(rows) {
      if (rows.length === 0) return;
      pending.push(rows);
      pendingRows += rows.length;
      if (pendingRows >= CHUNK_ROWS) drain(false);
    },
    flush() {
      drain(true);
      appender.flushSync();
    },
    close() {
      appender.closeSync();
    },
  };
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
