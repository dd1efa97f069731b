import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral } from './sql-quote.ts';

/** Writes a DuckDB table to one zstd-compressed Parquet file, rows in table order. */
export async function exportParquet(db: DuckDBConnection, table: string, file: string): Promise<void> {
  await db.run(`COPY ${quoteIdentifier(table)} TO ${quoteLiteral(file)} (FORMAT parquet, COMPRESSION zstd)`);
}

/** SHA-256 (hex) of a file's bytes, streamed so large tables are not held in memory twice. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
