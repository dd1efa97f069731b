import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { localCopy, localLake, type Lake } from '../../data-lake/lake.ts';
import { programsTable, writeTablesSnapshot } from '../support/serve-lake-fixture.ts';

// A replica's copy of a snapshot of a lake in S3 is downloaded file by file: each file's request waits on the
// store more than on this machine, so four are under way at once; a file it already holds for another
// snapshot (the same SHA-256) is linked, not downloaded, so a publish that changes one table costs one download.
describe("a remote lake's snapshot copied into this machine's cache", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /**
   * A lake whose store holds `tables` tables in snapshot s1 and answers each download after 30 ms; with
   * `changedInS2`, also a snapshot s2 whose first that many tables differ from s1's and the rest are the same.
   */
  async function remoteLake(tables: number, changedInS2?: number) {
    const root = await mkdtemp(path.join(tmpdir(), 'local-copy-'));
    dirs.push(root);
    const origin = localLake(path.join(root, 'origin'));
    const snapshotTables = (changed: number) =>
      Array.from({ length: tables }, (_, i) => ({
        ...programsTable(i < changed ? 's2' : 's1', i + 1),
        name: `table_${i + 1}`,
      }));
    await writeTablesSnapshot(origin, 's1', snapshotTables(0), { publish: true });
    if (changedInS2 !== undefined) {
      await writeTablesSnapshot(origin, 's2', snapshotTables(changedInS2), { publish: true });
    }
    const downloads = { underWay: 0, most: 0, done: 0 };
    const store: Lake['store'] = Object.assign(Object.create(origin.store) as Lake['store'], {
      localPath: () => null,
      download: async (key: string, file: string) => {
        downloads.most = Math.max(downloads.most, ++downloads.underWay);
        await delay(30);
        try {
          return await origin.store.download(key, file);
        } finally {
          downloads.underWay--;
          downloads.done++;
        }
      },
    });
    return { lake: { store, workDir: path.join(root, 'replica') }, downloads };
  }

  it('downloads its files four at a time, and holds it whole once every file is checked', async () => {
    const { lake, downloads } = await remoteLake(10);
    const cache = await localCopy(lake, 's1');
    // The 10 table files, four at a time, then the manifest.
    expect(downloads).toEqual({ underWay: 0, most: 4, done: 11 });
    expect((await readdir(path.join(cache.workDir, 'snapshots/s1'))).sort()).toEqual(
      [...Array.from({ length: 10 }, (_, i) => `table_${i + 1}.parquet`), 'manifest.json'].sort(),
    );
  });

  it('downloads a snapshot of fewer files all at once', async () => {
    const { lake, downloads } = await remoteLake(2);
    await localCopy(lake, 's1');
    expect(downloads).toEqual({ underWay: 0, most: 2, done: 3 });
  });

  it('links the files a cached snapshot has with the same bytes, and downloads only the others', async () => {
    const { lake, downloads } = await remoteLake(6, 1);
    const s1 = await localCopy(lake, 's1');
    expect(downloads.done).toBe(7);
    const s2 = await localCopy(lake, 's2');
    // table_1 and the manifest.
    expect(downloads.done).toBe(9);
    const file = (id: string, table: string) => path.join(s1.workDir, 'snapshots', id, `${table}.parquet`);
    expect((await stat(file('s2', 'table_2'))).ino).toBe((await stat(file('s1', 'table_2'))).ino);
    expect(await readFile(file('s2', 'table_1'))).not.toEqual(await readFile(file('s1', 'table_1')));
    expect(s2.workDir).toBe(s1.workDir);
  });

  it('downloads a file again when its cached copy’s bytes changed on this disk since', async () => {
    const { lake, downloads } = await remoteLake(3, 1);
    const s1 = await localCopy(lake, 's1');
    const damaged = path.join(s1.workDir, 'snapshots/s1/table_3.parquet');
    await writeFile(damaged, 'not the bytes its manifest names');
    await localCopy(lake, 's2');
    // table_1, table_3 and the manifest.
    expect(downloads.done).toBe(4 + 3);
    const copied = await readFile(path.join(s1.workDir, 'snapshots/s2/table_3.parquet'));
    expect(copied).toEqual(
      await readFile(path.join(path.dirname(lake.workDir), 'origin/snapshots/s2/table_3.parquet')),
    );
  });
});
