import { localLake } from '../../data-lake/lake.ts';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { z } from 'zod';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { columnsOfRow } from '../../data-lake/column-types.ts';
import { InvalidSnapshotIdError } from '../../data-lake/lake-paths.ts';
import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import { storeSnapshot, writeSnapshotFiles, type SnapshotDraft } from '../../data-lake/snapshot-writer.ts';
import { loadTable } from '../../data-lake/table-loader.ts';

const row = z.object({
  zip: z.string(),
  households: z.int(),
  share: z.number(),
  low_income: z.boolean(),
  ends: z.string().nullable(),
  programs: z.array(z.object({ id: z.string(), amount: z.number() })),
});

const rows = [
  {
    zip: '02139',
    households: 9_007_199_254_740_991,
    share: 0.125,
    low_income: true,
    ends: null,
    programs: [],
  },
  {
    zip: '94110',
    households: -3,
    share: 1e-9,
    low_income: false,
    ends: '2032-12-31',
    programs: [{ id: 'it\'s "quoted"', amount: 8000 }],
  },
];

function draft(id: string): SnapshotDraft {
  return {
    id,
    createdAt: '2026-11-21T16:00:00.000Z',
    parent: null,
    fingerprint: 'f'.repeat(64),
    codeVersion: 'test',
    sources: {},
    audit: [],
    tables: [
      {
        name: 'zips',
        rows: rows.length,
        schemaVersion: 2,
        description: 'ZIPs',
        inputs: { records: ['zip'], tables: [] },
      },
    ],
  };
}

async function writeSnapshot(lakeDir: string, id: string) {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    await loadTable(db, 'zips', columnsOfRow('zips', row), rows);
    const written = await writeSnapshotFiles(localLake(lakeDir), db, draft(id));
    await storeSnapshot(localLake(lakeDir), written);
    return written.manifest;
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

describe('snapshot files', () => {
  it('round-trips every column type through Parquet: integers as numbers, JSON columns as values', async ({
    lakeDir,
  }) => {
    await writeSnapshot(lakeDir, 's1');
    const snapshot = await openSnapshot(localLake(lakeDir), 's1');

    expect(snapshot.dir).toBe(path.join(lakeDir, 'snapshots', 's1'));
    expect(await snapshot.rows('zips')).toEqual(rows);
    expect(await readdir(snapshot.dir)).toEqual(['manifest.json', 'zips.parquet']);
  });

  it('writes byte-identical Parquet for identical rows, so checksums compare snapshots', async ({
    lakeDir,
  }) => {
    const first = await writeSnapshot(lakeDir, 's1');
    const second = await writeSnapshot(lakeDir, 's2');
    expect(first.tables.zips!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(second.tables.zips!.sha256).toBe(first.tables.zips!.sha256);
  });

  it('names a table the snapshot lacks, and refuses ids that could leave the lake', async ({ lakeDir }) => {
    await writeSnapshot(lakeDir, 's1');
    const snapshot = await openSnapshot(localLake(lakeDir), 's1');
    await expect(snapshot.rows('states')).rejects.toThrow('snapshot s1 has no table "states"');
    await expect(openSnapshot(localLake(lakeDir), '../s1')).rejects.toThrow(InvalidSnapshotIdError);
  });
});
