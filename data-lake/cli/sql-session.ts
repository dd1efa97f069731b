import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readCurrent } from '../current-pointer.ts';
import { localCopy, SnapshotNotInStoreError, type Lake } from '../lake.ts';
import { snapshotDir } from '../lake-paths.ts';
import { readManifest } from '../manifest-file.ts';
import { quoteIdentifier, quoteLiteral } from '../sql-quote.ts';
import { UsageError } from '../../lib/cli-main.ts';

export interface QueryResult {
  columns: string[];
  rows: unknown[][];
}

/** A DuckDB session with one view per table of a snapshot, for analysts. */
export interface SqlSession {
  readonly snapshotId: string;
  /** Each table and the Parquet file its view reads, for use from any other DuckDB or Parquet tool. */
  readonly tables: { name: string; file: string }[];
  /** Runs one or more statements; returns each statement's result in order. */
  query(sql: string): Promise<QueryResult[]>;
  close(): void;
}

/**
 * Opens a session over the published snapshot, or over `snapshotId` when given, from this machine's copy
 * of it (a remote lake's files are downloaded and checked first).
 */
export async function openSqlSession(lake: Lake, snapshotId?: string): Promise<SqlSession> {
  const id = snapshotId ?? (await readCurrent(lake));
  if (id === null)
    throw new UsageError(`nothing is published in ${lake.store.location} yet: run "npm run pipeline" first`);
  const local = await localCopy(lake, id).catch((error: unknown) => {
    if (error instanceof SnapshotNotInStoreError)
      throw new UsageError(`no snapshot "${id}" (see: npm run lake -- list)`);
    throw error;
  });
  const dir = snapshotDir(local.workDir, id);
  const manifest = await readManifest(dir);
  const tables = Object.entries(manifest.tables).map(([name, table]) => ({
    name,
    file: path.join(dir, table.file),
  }));
  return openSessionOverFiles(id, tables);
}

/** Opens a session with one view per Parquet file: a snapshot's, wherever the files are. */
export async function openSessionOverFiles(
  snapshotId: string,
  tables: { name: string; file: string }[],
): Promise<SqlSession> {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  for (const table of tables) {
    await db.run(
      `CREATE VIEW ${quoteIdentifier(table.name)} AS SELECT * FROM read_parquet(${quoteLiteral(table.file)})`,
    );
  }
  return {
    snapshotId,
    tables,
    query: (sql) => runStatements(db, sql),
    close() {
      db.closeSync();
      instance.closeSync();
    },
  };
}

async function runStatements(db: DuckDBConnection, sql: string): Promise<QueryResult[]> {
  const statements = await db.extractStatements(sql);
  const results: QueryResult[] = [];
  for (let i = 0; i < statements.count; i++) {
    const prepared = await statements.prepare(i);
    const reader = await prepared.runAndReadAll();
    results.push({ columns: reader.columnNames(), rows: reader.getRowsJS() });
  }
  return results;
}
