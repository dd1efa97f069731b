import { localLake } from '../../data-lake/lake.ts';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Manifest } from '../../schemas/lake.ts';
import { moveCurrent } from '../../data-lake/current-pointer.ts';
import { storeSnapshot, writeSnapshotFiles } from '../../data-lake/snapshot-writer.ts';
import { openSnapshot, readCurrent } from '../../data-lake/snapshot-reader.ts';
import { quoteIdentifier, quoteLiteral } from '../../data-lake/sql-quote.ts';

export interface SyntheticTables {
  /** Id of the snapshot to publish, and what its fingerprint adds to the parent's. */
  snapshotId: string;
  fingerprintSuffix: string;
  /** The tables the bench needs at national size; made synthetic when the pipeline built them empty or not at all. */
  tables: readonly string[];
  /** Whether the published snapshot lacks them (so they must be made). */
  lacks(manifest: Manifest): boolean;
  /** Creates every table of `tables` in `db`, beside the published snapshot's tables. */
  create(db: DuckDBConnection): Promise<void>;
}

/**
 * Copies the published snapshot into a new one where the bench's tables are the pipeline's own, or SYNTHETIC ones of
 * national size (labelled so in the manifest) when the pipeline did not build them, publishes it, and hands `read`
 * the copy to take what the bench needs from it.
 */
export async function publishBenchSnapshot<T>(
  lakeDir: string,
  synthetic: SyntheticTables,
  read: (db: DuckDBConnection, manifest: Manifest, isSynthetic: boolean) => Promise<T>,
): Promise<T & { synthetic: boolean }> {
  const parent = (await readCurrent(localLake(lakeDir)))!;
  const { dir, manifest } = await openSnapshot(localLake(lakeDir), parent);
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const db = await instance.connect();
    try {
      for (const [table, entry] of Object.entries(manifest.tables)) {
        await db.run(
          `CREATE TABLE ${quoteIdentifier(table)} AS SELECT * FROM read_parquet(${quoteLiteral(path.join(dir, entry.file))})`,
        );
      }
      const isSynthetic = synthetic.lacks(manifest);
      if (isSynthetic) {
        for (const table of synthetic.tables) await db.run(`DROP TABLE IF EXISTS ${quoteIdentifier(table)}`);
        await synthetic.create(db);
      }
      const count = async (table: string) =>
        Number(
          (await db.runAndReadAll(`SELECT count(*) FROM ${quoteIdentifier(table)}`)).getColumns()[0]![0],
        );
      const made = isSynthetic ? synthetic.tables : [];
      await storeSnapshot(
        localLake(lakeDir),
        await writeSnapshotFiles(localLake(lakeDir), db, {
          ...manifest,
          id: synthetic.snapshotId,
          parent,
          fingerprint: `${manifest.fingerprint}+${synthetic.fingerprintSuffix}`,
          tables: [
            ...Object.entries(manifest.tables)
              .filter(([name]) => !made.includes(name))
              .map(([name, entry]) => ({ name, ...entry })),
            ...(await Promise.all(
              made.map(async (name) => ({
                name,
                rows: await count(name),
                schemaVersion: 1,
                description: `SYNTHETIC ${name} of national size (bench)`,
                inputs: { records: [], tables: [] },
              })),
            )),
          ],
        }),
      );
      await moveCurrent(localLake(lakeDir), synthetic.snapshotId);
      return { ...(await read(db, manifest, isSynthetic)), synthetic: isSynthetic };
    } finally {
      db.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
