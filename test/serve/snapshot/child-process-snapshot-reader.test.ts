import { localLake } from '../../../data-lake/lake.ts';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { openSnapshotInChildProcess } from '../../../serve/snapshot/child-process-snapshot-reader.ts';
import { openSnapshot } from '../../../data-lake/snapshot-reader.ts';
import { writeProgramsSnapshot } from '../../support/serve-lake-fixture.ts';

let lakeDir: string;
it.beforeAll(async ({ fileTempDir }) => {
  lakeDir = fileTempDir;
  await writeProgramsSnapshot(lakeDir, 's1', 3, { publish: true });
});

describe('openSnapshotInChildProcess', () => {
  it('gives the same manifest and rows as reading in this process', async () => {
    const direct = await openSnapshot(localLake(lakeDir), 's1');
    const viaChild = await openSnapshotInChildProcess(localLake(lakeDir), 's1');
    expect(viaChild.id).toBe('s1');
    expect(viaChild.manifest).toEqual(direct.manifest);
    expect(await viaChild.rows('programs')).toEqual([
      { snapshot: 's1', program: 'program-0', amountUsd: 1000 },
      { snapshot: 's1', program: 'program-1', amountUsd: 2000 },
      { snapshot: 's1', program: 'program-2', amountUsd: 3000 },
    ]);
    // A second read, after the child has gone idle and exited, starts a new one.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await viaChild.rows('programs')).toHaveLength(3);
  });

  it('gives a table of several messages’ rows whole and in order, and a table of none as empty', async () => {
    // About 60 bytes a row: 12,000 rows are two full messages and part of a third (MESSAGE_BYTES).
    for (const [id, count] of [
      ['many', 12_000],
      ['one', 1],
      ['none', 0],
    ] as const) {
      await writeProgramsSnapshot(lakeDir, id, count, { publish: false });
      const rows = await (await openSnapshotInChildProcess(localLake(lakeDir), id)).rows('programs');
      expect(rows).toEqual(await (await openSnapshot(localLake(lakeDir), id)).rows('programs'));
      expect(rows).toHaveLength(count);
    }
  });

  it('rejects a table the snapshot lacks with the reader’s message, and keeps reading others', async () => {
    const reader = await openSnapshotInChildProcess(localLake(lakeDir), 's1');
    await expect(reader.rows('nope')).rejects.toThrow('snapshot s1 has no table "nope"');
    expect(await reader.rows('programs')).toHaveLength(3);
  });

  it('gives a table’s columns with the types DuckDB reads from its Parquet file, as reading in this process', async () => {
    const columns = [
      { name: 'snapshot', type: 'VARCHAR' },
      { name: 'program', type: 'VARCHAR' },
      { name: 'amountUsd', type: 'DOUBLE' },
    ];
    expect(await (await openSnapshotInChildProcess(localLake(lakeDir), 's1')).columns('programs')).toEqual(
      columns,
    );
    expect(await (await openSnapshot(localLake(lakeDir), 's1')).columns('programs')).toEqual(columns);
    await expect((await openSnapshot(localLake(lakeDir), 's1')).columns('nope')).rejects.toThrow(
      'snapshot s1 has no table "nope"',
    );
  });

  it('refuses a snapshot that does not exist before starting any process', async () => {
    await expect(openSnapshotInChildProcess(localLake(lakeDir), 's9')).rejects.toThrow();
  });
});

describe('writeFloat64File', () => {
  it('writes a query over the snapshot’s tables as float64 rows, in the serving cache, and reuses the file', async () => {
    const reader = await openSnapshotInChildProcess(localLake(lakeDir), 's1');
    const sql = 'SELECT amountUsd, length(program) FROM programs ORDER BY amountUsd DESC';
    const file = await reader.writeFloat64File('amounts', sql);
    expect(file.values).toBe(6);
    expect(path.dirname(file.path)).toBe(path.join(lakeDir, 'cache', 'serving', 's1'));
    const bytes = await readFile(file.path);
    expect([...new Float64Array(bytes.buffer, bytes.byteOffset, 6)]).toEqual([3000, 9, 2000, 9, 1000, 9]);
    const written = (await stat(file.path)).mtimeMs;
    // Asked again (as after a restart), the complete file is reused, not rewritten.
    const again = await openSnapshot(localLake(lakeDir), 's1');
    expect(await again.writeFloat64File('amounts', sql)).toEqual(file);
    expect((await stat(file.path)).mtimeMs).toBe(written);
    // Another query under the same name is another file.
    expect((await again.writeFloat64File('amounts', 'SELECT 1.5')).path).not.toBe(file.path);
  });

  it('rejects a query that fails with DuckDB’s message and leaves no file behind', async () => {
    const reader = await openSnapshotInChildProcess(localLake(lakeDir), 's1');
    await expect(reader.writeFloat64File('broken', 'SELECT nope FROM programs')).rejects.toThrow(/nope/);
    const files = await readdir(path.join(lakeDir, 'cache', 'serving', 's1'));
    expect(files.some((f) => f.startsWith('broken'))).toBe(false);
  });
});
