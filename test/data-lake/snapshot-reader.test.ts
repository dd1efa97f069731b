import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localLake } from '../../data-lake/lake.ts';
import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import { programsTable, writeTablesSnapshot } from '../support/serve-lake-fixture.ts';

// A query written to a float64 file reads the tables it names, each a view of its Parquet file; a view is bound
// when it is made (DuckDB opens the file for its columns), so views of the snapshot's other tables would cost a
// file's opening each, at every query of a snapshot's load.
describe('a query over a snapshot’s tables (writeFloat64File)', () => {
  let lakeDir: string;
  beforeAll(async () => {
    lakeDir = await mkdtemp(path.join(tmpdir(), 'snapshot-reader-'));
    await writeTablesSnapshot(
      lakeDir,
      's1',
      [
        programsTable('s1'),
        { ...programsTable('s1'), name: 'other_programs' },
        { ...programsTable('s1'), name: 'unread' },
      ],
      { publish: true },
    );
    // A file no query below names, made unreadable: a view of it would fail as it is made.
    await writeFile(path.join(lakeDir, 'snapshots/s1/unread.parquet'), 'not a Parquet file');
  });
  afterAll(() => rm(lakeDir, { recursive: true, force: true }));

  it('reads only the tables the query names', async () => {
    const snapshot = await openSnapshot(localLake(lakeDir), 's1');
    const file = await snapshot.writeFloat64File(
      'totals',
      'SELECT sum(p.amountUsd), count(*) FROM programs p JOIN other_programs o ON p.program = o.program',
    );
    const bytes = await readFile(file.path);
    expect([...new Float64Array(bytes.buffer, bytes.byteOffset, file.values)]).toEqual([6000, 3]);
  });

  it('fails a query naming a table whose file is unreadable, with DuckDB’s message', async () => {
    const snapshot = await openSnapshot(localLake(lakeDir), 's1');
    await expect(snapshot.writeFloat64File('unread', 'SELECT count(*) FROM unread')).rejects.toThrow(
      /unread\.parquet/,
    );
  });
});

// A publish mostly changes a few tables: a query over tables whose bytes another snapshot has too gives the
// numbers that snapshot's file holds, so the file is linked from it rather than computed again.
describe('a query’s float64 file, from one snapshot to the next', () => {
  let lakeDir: string;
  const CHANGED = { ...programsTable('s2'), name: 'other_programs' };
  beforeAll(async () => {
    lakeDir = await mkdtemp(path.join(tmpdir(), 'snapshot-reader-'));
    const unchanged = { ...programsTable('s1'), name: 'other_programs' };
    await writeTablesSnapshot(lakeDir, 's1', [programsTable('s1'), unchanged], { publish: true });
    await writeTablesSnapshot(lakeDir, 's2', [programsTable('s1'), CHANGED], { publish: true });
  });
  afterAll(() => rm(lakeDir, { recursive: true, force: true }));

  const numbers = async (file: { path: string; values: number }) => {
    const bytes = await readFile(file.path);
    return [...new Float64Array(bytes.buffer, bytes.byteOffset, file.values)];
  };

  it('is linked from the snapshot before when the tables it reads are unchanged', async () => {
    const sql = 'SELECT sum(amountUsd), count(*) FROM programs';
    const before = await (await openSnapshot(localLake(lakeDir), 's1')).writeFloat64File('totals', sql);
    const after = await (await openSnapshot(localLake(lakeDir), 's2')).writeFloat64File('totals', sql);
    expect(after.path).toContain('/s2/');
    expect((await stat(after.path)).ino).toBe((await stat(before.path)).ino);
    expect(await numbers(after)).toEqual([6000, 3]);
  });

  it('is computed again when a table it reads changed', async () => {
    const sql = "SELECT count(*) FROM other_programs WHERE snapshot = 's2'";
    const before = await (await openSnapshot(localLake(lakeDir), 's1')).writeFloat64File('changed', sql);
    const after = await (await openSnapshot(localLake(lakeDir), 's2')).writeFloat64File('changed', sql);
    expect(await numbers(before)).toEqual([0]);
    expect(await numbers(after)).toEqual([CHANGED.rows.length]);
  });
});
