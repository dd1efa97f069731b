import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/**
 * A short-lived in-memory DuckDB for one read or comparison of snapshot files: a snapshot reader is held for
 * a snapshot's whole serving life, and DuckDB instances are native resources that nothing else would close.
 */
export async function withMemoryDb<T>(use: (db: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const db = await instance.connect();
    try {
      return await use(db);
    } finally {
      db.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
