import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBTypeId, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import type { Manifest } from '../schemas/lake.ts';
import type { TableRef } from './tables/table-ref.ts';
import { readCurrent } from './current-pointer.ts';
import { writeFileAtomically } from '../lib/fs/durable-file.ts';
import { localCopy, type Lake } from './lake.ts';
import { lakePaths, snapshotDir } from './lake-paths.ts';
import { readManifest } from './manifest-file.ts';
import { withMemoryDb, type MemoryDb } from './memory-db.ts';
import { quoteIdentifier, quoteLiteral } from './sql-quote.ts';

export { readCurrent };

/** Read access to one published snapshot of the lake. */
export interface SnapshotReader {
  readonly id: string;
  readonly dir: string;
  readonly manifest: Manifest;
  /** All rows of a table of this snapshot (JSON columns parsed back into values). */
  rows<T = Record<string, unknown>>(table: string): Promise<T[]>;
  /** The columns of a table's Parquet file, with the types DuckDB reads them as (from the file's footer). */
  columns(table: string): Promise<ParquetColumn[]>;
  /**
   * Writes the result of `sql` (over this snapshot's tables, each a view named after its table; numeric
   * columns only) as little-endian float64, row after row, to a file in the lake's serving cache, and
   * returns its path and how many numbers it holds. For tables too large to hold as row objects: the
   * caller reads the file by position. The file is named after the snapshot, `name` and the query, so a
   * restart reuses it.
   */
  writeFloat64File(name: string, sql: string): Promise<Float64File>;
}

export interface ParquetColumn {
  name: string;
  /** DuckDB's name of the type: VARCHAR, BIGINT, DOUBLE, BOOLEAN, JSON, … */
  type: string;
}

export interface Float64File {
  path: string;
  /** Numbers in the file: rows × columns. */
  values: number;
}

/**
 * The rows of a table of a snapshot, by its reference: typed by its row schema, which validated every row
 * before it was written.
 */
export const readTable = <Row extends Record<string, unknown>>(
  snapshot: Pick<SnapshotReader, 'rows'>,
  table: TableRef<Row>,
): Promise<Row[]> => snapshot.rows<Row>(table.name);

/**
 * Opens a snapshot of the lake by id, from this machine's copy of it (see `localCopy`); its manifest is
 * read and validated now, its tables on demand, each read in a DuckDB of `memoryDb` (by default one of its
 * own).
 */
export async function openSnapshot(
  lake: Lake,
  id: string,
  memoryDb: MemoryDb = withMemoryDb,
): Promise<SnapshotReader> {
  const dir = snapshotDir((await localCopy(lake, id)).workDir, id);
  const servingCache = lakePaths(lake.workDir).servingCache;
  return new ParquetSnapshotReader(id, dir, await readManifest(dir), servingCache, memoryDb);
}

class ParquetSnapshotReader implements SnapshotReader {
  constructor(
    readonly id: string,
    readonly dir: string,
    readonly manifest: Manifest,
    private readonly servingCache: string,
    private readonly memoryDb: MemoryDb,
  ) {}

  async writeFloat64File(name: string, sql: string): Promise<Float64File> {
    // Named after the query and the bytes of the tables it reads: another snapshot's file of the same name
    // holds the same numbers, and is linked rather than computed again (a publish mostly changes a few tables).
    const inputs = tablesNamedBy(this.manifest, sql).map(([, entry]) => entry.sha256);
    const digest = createHash('sha256')
      .update([sql, ...inputs].join('\n'))
      .digest('hex')
      .slice(0, 16);
    const fileName = `${name}-${digest}.f64`;
    const target = path.join(this.servingCache, this.id, fileName);
    await mkdir(path.dirname(target), { recursive: true });
    // Written atomically, so a file that exists is complete.
    const written =
      (await stat(target).catch(() => null)) ?? (await this.linkFromAnotherSnapshot(fileName, target));
    if (written) return { path: target, values: written.size / Float64Array.BYTES_PER_ELEMENT };
    let values = 0;
    await this.withTables(sql, async (db) => {
      const result = await db.stream(sql);
      await writeFileAtomically(target, async (handle) => {
        for (
          let chunk = await result.fetchChunk();
          chunk && chunk.rowCount > 0;
          chunk = await result.fetchChunk()
        ) {
          const columns = chunk.getColumns();
          const block = new Float64Array(chunk.rowCount * columns.length);
          for (let c = 0; c < columns.length; c++) {
            const column = columns[c]!;
            for (let r = 0; r < chunk.rowCount; r++) block[r * columns.length + c] = Number(column[r] ?? NaN);
          }
          await handle.write(new Uint8Array(block.buffer));
          values += block.length;
        }
      });
    });
    return { path: target, values };
  }

  /**
   * A connection with one view per table of this snapshot that `sql` names (temporary: they go with the
   * connection). A view is bound as it is made, its file opened for its columns: views of every table, at each
   * query of a snapshot's load, would open every file of the snapshot each time.
   */
  private withTables<T>(sql: string, use: (db: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.memoryDb(async (db) => {
      for (const [table, entry] of tablesNamedBy(this.manifest, sql)) {
        const file = quoteLiteral(path.join(this.dir, entry.file));
        await db.run(`CREATE TEMP VIEW ${quoteIdentifier(table)} AS SELECT * FROM read_parquet(${file})`);
      }
      return use(db);
    });
  }

  /**
   * Hard-links the serving file `fileName` of another snapshot (never changed once written) as `target`;
   * its size, or null when no other snapshot has it.
   */
  private async linkFromAnotherSnapshot(fileName: string, target: string): Promise<Stats | null> {
    for (const snapshot of await readdir(this.servingCache)) {
      if (snapshot === this.id) continue;
      try {
        await link(path.join(this.servingCache, snapshot, fileName), target);
        return await stat(target);
      } catch {
        // That snapshot's load wrote no such file.
      }
    }
    return null;
  }

  async columns(table: string): Promise<ParquetColumn[]> {
    return this.withFile(table, async (db, file) => {
      const result = await db.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${quoteLiteral(file)})`);
      return result
        .getRowObjectsJson()
        .map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
    });
  }

  /** Reads one table's Parquet file; BIGINT columns come back as numbers and JSON columns as values. */
  rows<T = Record<string, unknown>>(table: string): Promise<T[]> {
    return this.withFile(table, async (db, file) => {
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
    });
  }

  /** A connection and the path of one table's Parquet file. */
  private withFile<T>(table: string, use: (db: DuckDBConnection, file: string) => Promise<T>): Promise<T> {
    const entry = this.manifest.tables[table];
    if (!entry) return Promise.reject(new Error(`snapshot ${this.id} has no table "${table}"`));
    return this.memoryDb((db) => use(db, path.join(this.dir, entry.file)));
  }
}

/** The tables of a manifest that `sql` names, in the manifest's order: those a query over them reads. */
export const tablesNamedBy = (manifest: Manifest, sql: string) =>
  Object.entries(manifest.tables).filter(([table]) => namesTable(sql, table));

/** Whether `sql` names `table` (a word of its own, in any case: an identifier is not part of a longer one). */
const namesTable = (sql: string, table: string): boolean =>
  new RegExp(`(?<![\\w$])${table.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`, 'i').test(sql);

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
