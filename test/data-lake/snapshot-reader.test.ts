import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
