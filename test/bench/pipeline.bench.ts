import { localLake } from '../../data-lake/lake.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { z } from 'zod';
import { columnsOfRow } from '../../data-lake/column-types.ts';
import { moveCurrent } from '../../data-lake/current-pointer.ts';
import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import { storeSnapshot, writeSnapshotFiles } from '../../data-lake/snapshot-writer.ts';
import { loadTable } from '../../data-lake/table-loader.ts';
import { createDemoLake } from '../support/demo-source/demo-lake.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';

// A serving-table-like row: keys, integers, doubles, a boolean, a nullable string and a JSON list.
const row = z.object({
  zip: z.string(),
  state: z.string(),
  programs: z.int(),
  max_amount_usd: z.number(),
  low_income: z.boolean(),
  ends: z.string().nullable(),
  program_ids: z.array(z.string()),
});
const STATES = ['CA', 'CO', 'MA', 'NY', 'RI', 'TX', 'WA'];

function rowsOf(count: number): z.infer<typeof row>[] {
  return Array.from({ length: count }, (_, i) => ({
    zip: String(i).padStart(7, '0'),
    state: STATES[i % STATES.length]!,
    programs: i % 37,
    max_amount_usd: (i % 9000) * 1.25,
    low_income: i % 3 === 0,
    ends: i % 4 === 0 ? null : '2032-12-31',
    program_ids: [`p${i % 101}`, `p${i % 103}`],
  }));
}

/** Loads rows into DuckDB, writes the Parquet snapshot, promotes it and swaps CURRENT; times each part. */
async function writeAndPublish(count: number): Promise<BenchResult[]> {
  const lakeDir = await mkdtemp(path.join(tmpdir(), 'bench-lake-'));
  const rows = rowsOf(count);
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    const started = performance.now();
    await loadTable(db, 'serving', columnsOfRow('serving', row), rows);
    const loaded = performance.now();
    await storeSnapshot(
      localLake(lakeDir),
      await writeSnapshotFiles(localLake(lakeDir), db, {
        id: 'bench',
        createdAt: new Date().toISOString(),
        parent: null,
        fingerprint: '0'.repeat(64),
        codeVersion: 'bench',
        sources: {},
        audit: [],
        tables: [
          {
            name: 'serving',
            rows: count,
            schemaVersion: 1,
            description: 'bench',
            inputs: { records: [], tables: [] },
          },
        ],
      }),
    );
    await moveCurrent(localLake(lakeDir), 'bench');
    const published = performance.now();
    const read = await (await openSnapshot(localLake(lakeDir), 'bench')).rows('serving');
    const readBack = performance.now();
    if (read.length !== count) throw new Error(`read ${read.length} rows back, wrote ${count}`);
    const label = count >= 1e6 ? `${count / 1e6}M` : `${count / 1e3}k`;
    return [
      {
        name: `write+publish ${label}-row table`,
        value: (published - started) / 1000,
        unit: 's',
        target: { op: '<=', value: count >= 1e6 ? 10 : 1.5 },
        note: `appender load ${((loaded - started) / 1000).toFixed(2)} s, Parquet+manifest+fsync+publish ${((published - loaded) / 1000).toFixed(2)} s`,
      },
      {
        name: `read back ${label}-row table (SnapshotReader.rows)`,
        value: (readBack - published) / 1000,
        unit: 's',
      },
    ];
  } finally {
    db.closeSync();
    instance.closeSync();
    await rm(lakeDir, { recursive: true, force: true });
  }
}

/** A whole pipeline run over a demo source of `count` records: ingest, log, staging, build, audit, publish. */
async function endToEnd(count: number): Promise<BenchResult> {
  const lake = await createDemoLake();
  try {
    const lines = Array.from(
      { length: count },
      (_, i) => `item-${i},${STATES[i % STATES.length]},${100 + (i % 5000)}`,
    );
    await writeFile(
      path.join(lake.sourceDir, 'prices.csv'),
      ['item,region,price_usd', ...lines, ''].join('\n'),
    );
    const started = performance.now();
    const result = await lake.run();
    const seconds = (performance.now() - started) / 1000;
    if (result.status !== 'published' || result.manifest.tables.demo_prices!.rows !== count) {
      throw new Error('the end-to-end run did not publish every record');
    }
    return {
      name: `pipeline run end to end, ${count / 1e3}k source records`,
      value: count / seconds,
      unit: 'records/s',
      target: { op: '>=', value: 10_000 },
      note: `${seconds.toFixed(2)} s (embedded log, staging, 2 tables + quarantine)`,
    };
  } finally {
    await lake.remove();
  }
}

export const bench: Bench = {
  title: 'Lake writes and pipeline runs',
  async run() {
    return [
      ...(await writeAndPublish(100_000)),
      ...(await writeAndPublish(1_000_000)),
      await endToEnd(100_000),
    ];
  },
};
