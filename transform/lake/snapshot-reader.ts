import path from 'node:path';
import { DuckDBInstance, DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import type { Manifest } from '../../schemas/lake.ts';
import { readCurrent } from './current-pointer.ts';
import { snapshotDir } from './lake-paths.ts';
import { readManifest } from './manifest-file.ts';
import { quoteLiteral } from './sql-quote.ts';

export { readCurrent };

/** Read access to one published snapshot of the lake. */
export interface SnapshotReader {
  readonly id: string;
  readonly dir: string;
  readonly manifest: Manifest;
  /** All rows of a table of this snapshot (JSON columns parsed back into values). */
  rows<T = Record<string, unknown>>(table: string): Promise<T[]>;
}

/** Opens a snapshot of the lake by id; its manifest is read and validated now, its tables on demand. */
export async function openSnapshot(lakeDir: string, id: string): Promise<SnapshotReader> {
  const dir = snapshotDir(lakeDir, id);
  return new ParquetSnapshotReader(id, dir, await readManifest(dir));
}

class ParquetSnapshotReader implements SnapshotReader {
  constructor(
    readonly id: string,
    readonly dir: string,
    readonly manifest: Manifest,
  ) {}

  /** Reads one table's Parquet file; BIGINT columns come back as numbers and JSON columns as values. */
  async rows<T = Record<string, unknown>>(table: string): Promise<T[]> {
    const entry = this.manifest.tables[table];
    if (!entry) throw new Error(`snapshot ${this.id} has no table "${table}"`);
    // A short-lived in-memory instance per read: readers are held for a snapshot's whole serving life
    // and DuckDB instances are native resources that nothing else would close.
    const instance = await DuckDBInstance.create(':memory:');
    try {
      const db = await instance.connect();
      try {
        const file = path.join(this.dir, entry.file);
        const result = await db.runAndReadAll(`SELECT * FROM read_parquet(${quoteLiteral(file)})`);
        const names = result.columnNames();
        // Column-major reads cross the native boundary faster than row-major ones; rows are assembled here.
        const columns = result
          .getColumns()
          .map((values, i) => values.map(converterFor(result.columnTypes()[i]!, names[i]!)));
        const rows = new Array<T>(result.currentRowCount);
        for (let r = 0; r < rows.length; r++) {
          const row: Record<string, unknown> = {};
          for (let c = 0; c < names.length; c++) row[names[c]!] = columns[c]![r];
          rows[r] = row as T;
        }
        return rows;
      } finally {
        db.closeSync();
      }
    } finally {
      instance.closeSync();
    }
  }
}

function converterFor(type: DuckDBType, column: string): (value: unknown) => unknown {
  if (type.typeId === DuckDBTypeId.BIGINT) {
    return (value) => {
      if (value === null) return null;
      const number = Number(value as bigint);
      if (!Number.isSafeInteger(number)) throw new Error(`column ${column}: ${String(value)} is too large`);
      return number;
    };
  }
  if (type.typeId === DuckDBTypeId.VARCHAR && type.alias === 'JSON') {
    return (value) => (value === null ? null : JSON.parse(value as string));
  }
  return (value) => value;
}
