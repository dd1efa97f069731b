import { DuckDBInstance } from '@duckdb/node-api';
import { writeCurrent } from '../../transform/lake/current-pointer.ts';
import { promotePartialSnapshot, writePartialSnapshot } from '../../transform/lake/snapshot-writer.ts';
import { programRows } from './serve-fixtures.ts';

/**
 * Writes a real lake snapshot (Parquet + manifest, through the lake's own writer) holding the fixture
 * `programs` table with `count` rows tagged with the snapshot id; `publish` also moves CURRENT to it.
 */
export async function writeProgramsSnapshot(
  lakeDir: string,
  id: string,
  count: number,
  options: { publish: boolean },
): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const db = await instance.connect();
    try {
      await db.run('CREATE TABLE programs (snapshot VARCHAR, program VARCHAR, amountUsd DOUBLE)');
      const appender = await db.createAppender('programs');
      for (const row of programRows(id, count)) {
        appender.appendVarchar(row.snapshot);
        appender.appendVarchar(row.program);
        appender.appendDouble(row.amountUsd);
        appender.endRow();
      }
      appender.closeSync();
      await writePartialSnapshot(lakeDir, db, {
        id,
        createdAt: new Date().toISOString(),
        parent: null,
        fingerprint: `fixture-${id}`,
        codeVersion: 'test',
        sources: {},
        audit: [],
        tables: [
          {
            name: 'programs',
            rows: count,
            schemaVersion: 1,
            description: 'fixture programs',
            inputs: { records: [], tables: [] },
          },
        ],
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
