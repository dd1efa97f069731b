import { DuckDBInstance } from '@duckdb/node-api';
import { z, type ZodType } from 'zod';
import { columnsOfRow } from '../../transform/lake/column-types.ts';
import { writeCurrent } from '../../transform/lake/current-pointer.ts';
import { promotePartialSnapshot, writePartialSnapshot } from '../../transform/lake/snapshot-writer.ts';
import { loadTable } from '../../transform/lake/table-loader.ts';
import { programRows } from './serve-fixtures.ts';

export interface FixtureTable {
  name: string;
  row: ZodType;
  rows: readonly Record<string, unknown>[];
}

/** Writes a real lake snapshot (Parquet + manifest, through the lake's own writer) of the given tables. */
export async function writeTablesSnapshot(
  lakeDir: string,
  id: string,
  tables: readonly FixtureTable[],
  options: { publish: boolean },
): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const db = await instance.connect();
    try {
      for (const table of tables)
        await loadTable(db, table.name, columnsOfRow(table.name, table.row), table.rows);
      await writePartialSnapshot(lakeDir, db, {
        id,
        createdAt: '2026-11-21T12:00:00.000Z',
        parent: null,
        fingerprint: `fixture-${id}`,
        codeVersion: 'fixture-code',
        sources: {},
        audit: [],
        tables: tables.map((table) => ({
          name: table.name,
          rows: table.rows.length,
          schemaVersion: 1,
          description: `fixture ${table.name}`,
          inputs: { records: [], tables: [] },
        })),
      });
    } finally {
      db.closeSync();
    }
  } finally {
    instance.closeSync();
  }
  await promotePartialSnapshot(lakeDir, id);
  if (options.publish) await writeCurrent(lakeDir, id);
}

/** The fixture `programs` table the stand-in module serves. */
export const programsTable = (snapshot: string, count = 3): FixtureTable => ({
  name: 'programs',
  row: z.object({ snapshot: z.string(), program: z.string(), amountUsd: z.number() }),
  rows: programRows(snapshot, count) as unknown as Record<string, unknown>[],
});

/**
 * Writes a real lake snapshot holding the fixture `programs` table with `count` rows tagged with the
 * snapshot id; `publish` also moves CURRENT to it.
 */
export function writeProgramsSnapshot(
  lakeDir: string,
  id: string,
  count: number,
  options: { publish: boolean },
): Promise<void> {
  return writeTablesSnapshot(lakeDir, id, [programsTable(id, count)], options);
}
