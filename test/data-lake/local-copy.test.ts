import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { localCopy, localLake, type Lake } from '../../data-lake/lake.ts';
import { programsTable, writeTablesSnapshot } from '../support/serve-lake-fixture.ts';

// A replica's copy of a snapshot of a lake in S3 is downloaded file by file: each file's request waits on the
// store more than on this machine, so four are under way at once.
describe("a remote lake's snapshot copied into this machine's cache", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** A lake whose store holds `tables` tables in snapshot s1 and answers each download after 30 ms. */
  async function remoteLake(tables: number) {
    const root = await mkdtemp(path.join(tmpdir(), 'local-copy-'));
    dirs.push(root);
    const origin = localLake(path.join(root, 'origin'));
    await writeTablesSnapshot(
      origin,
      's1',
      Array.from({ length: tables }, (_, i) => ({ ...programsTable('s1'), name: `table_${i + 1}` })),
      { publish: true },
    );
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
});
