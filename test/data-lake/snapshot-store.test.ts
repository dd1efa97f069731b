import { localLake } from '../../data-lake/lake.ts';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { readPublishedManifest, removeRunLeftovers } from '../../data-lake/snapshot-store.ts';

describe('removeRunLeftovers', () => {
  it('removes partial and half-deleted snapshots and CURRENT temporaries, and nothing that belongs to others', async ({
    lakeDir,
  }) => {
    const snapshots = path.join(lakeDir, 'snapshots');
    await mkdir(path.join(snapshots, '20261121T160000000Z-aaaaaaaa'), { recursive: true });
    await mkdir(path.join(snapshots, '20261121T170000000Z-bbbbbbbb.partial'));
    await writeFile(path.join(snapshots, '20261121T170000000Z-bbbbbbbb.partial', 'zips.parquet'), 'PAR1');
    await mkdir(path.join(snapshots, '20261120T160000000Z-cccccccc.tmp-deleting'));
    await writeFile(path.join(lakeDir, 'CURRENT'), '20261121T160000000Z-aaaaaaaa\n');
    await writeFile(path.join(lakeDir, 'CURRENT.tmp-4242-0a1b2c3d'), '20261121T170000000Z-bbbbbbbb\n');
    await writeFile(path.join(lakeDir, 'keys.json'), '{}');
    await writeFile(path.join(lakeDir, 'keys.json.tmp-77-ffff0000'), '{}');
    // What DuckDB spilled while a killed run built its tables; the serving cache beside it is not the run's.
    await mkdir(path.join(lakeDir, 'cache', 'build-spill'), { recursive: true });
    await writeFile(path.join(lakeDir, 'cache', 'build-spill', 'duckdb_temp_storage-0.tmp'), 'spilled');
    await mkdir(path.join(lakeDir, 'cache', 'serving'), { recursive: true });

    expect((await removeRunLeftovers(localLake(lakeDir))).sort()).toEqual([
      '20261120T160000000Z-cccccccc.tmp-deleting',
      '20261121T170000000Z-bbbbbbbb.partial',
      'CURRENT.tmp-4242-0a1b2c3d',
      'cache/build-spill',
    ]);
    expect(await readdir(path.join(lakeDir, 'cache'))).toEqual(['serving']);
    expect(await readdir(snapshots)).toEqual(['20261121T160000000Z-aaaaaaaa']);
    expect((await readdir(lakeDir)).sort()).toEqual([
      'CURRENT',
      'cache',
      'keys.json',
      'keys.json.tmp-77-ffff0000',
      'snapshots',
    ]);
  });
});

describe('readPublishedManifest', () => {
  // A published snapshot's manifest is read back in test/pipeline/staged-publish.test.ts.
  it('is null with nothing published, and when CURRENT names a snapshot without a readable manifest', async ({
    lakeDir,
  }) => {
    expect(await readPublishedManifest(localLake(lakeDir))).toBeNull();
    await mkdir(path.join(lakeDir, 'snapshots', '20261121T160000000Z-aaaaaaaa'), { recursive: true });
    await writeFile(path.join(lakeDir, 'CURRENT'), '20261121T160000000Z-aaaaaaaa\n');
    expect(await readPublishedManifest(localLake(lakeDir))).toBeNull();
  });
});
