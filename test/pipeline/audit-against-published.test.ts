import { localLake } from '../../data-lake/lake.ts';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCurrent } from '../../data-lake/current-pointer.ts';
import { snapshotDir } from '../../data-lake/lake-paths.ts';
import { readManifest } from '../../data-lake/manifest-file.ts';
import { listRuns } from '../../data-lake/run-history.ts';
import { listSnapshots, publishHeld } from '../../data-lake/snapshot-store.ts';
import type { PipelineResult } from '../../pipeline/run-pipeline.ts';
import { z } from 'zod';
import { whole } from '../../data-lake/tables/table-contract.ts';
import { tableRef } from '../../data-lake/tables/table-ref.ts';
import type { LakeTable } from '../../transform/tables/lake-table.ts';
import { demoDefinitions } from '../support/demo-source/demo-definitions.ts';
import { createDemoLake, type DemoLake } from '../support/demo-source/demo-lake.ts';
import { demoPriceRecordSchema } from '../support/demo-source/demo-records.ts';

/*
 * Write–audit–publish over the demo source (appliance prices by region, partitioned by region, its median
 * price watched): a run whose tables changed implausibly against CURRENT writes its snapshot, holds it and
 * leaves CURRENT; an ordinary update publishes.
 */

let lake: DemoLake;
let published: string;

/** The demo's six prices in CA and NY, and a third region with four, all plausible. */
const PRICES = [
  'heat-pump,CA,14250.50',
  'heat-pump,NY,13100',
  'heat-pump,TX,12900',
  'heat-pump-water-heater,CA,4200',
  'heat-pump-water-heater,NY,3990.75',
  'heat-pump-water-heater,TX,3800',
  'induction-stove,CA,1899.99',
  'induction-stove,NY,1750',
  'induction-stove,TX,1650',
  'heat-pump-dryer,TX,1400',
];

const idOf = (result: PipelineResult) => result.snapshotId;

beforeEach(async () => {
  lake = await createDemoLake();
  await lake.writePrices(PRICES);
  published = idOf(await lake.run({ now: () => new Date('2026-11-01T10:00:00.000Z') }));
});
afterEach(async () => {
  await lake.remove();
});

describe('a run compared with the published snapshot', () => {
  it('holds a region that lost every price: written, not published, with the finding in its manifest', async () => {
    await lake.writePrices(PRICES.filter((line) => !line.includes(',TX,')));
    const result = await lake.run({ now: () => new Date('2026-11-02T10:00:00.000Z') });

    expect(result.status).toBe('held');
    expect(await readCurrent(localLake(lake.lakeDir))).toBe(published);
    const manifest = await readManifest(snapshotDir(lake.lakeDir, result.snapshotId));
    expect(manifest.hold).toEqual({
      against: published,
      findings: [
        {
          table: 'demo_prices',
          check: 'partition-emptied',
          severity: 'hold',
          message: 'a partition that had rows has none',
          count: 1,
          examples: ['TX: 4 → 0 rows'],
          partition: 'TX',
          before: 4,
          after: 0,
        },
      ],
    });
    expect((await listSnapshots(localLake(lake.lakeDir))).map((s) => [s.id, s.status])).toEqual([
      [result.snapshotId, 'held'],
      [published, 'current'],
    ]);
  });

  it('holds prices that moved tenfold (a unit error upstream) in one region', async () => {
    await lake.writePrices(
      PRICES.map((line) =>
        line.includes(',NY,') ? line.replace(/,([\d.]+)$/, (_, p) => `,${Number(p) * 10}`) : line,
      ),
    );
    const result = await lake.run();
    expect(result.status).toBe('held');
    if (result.status !== 'held') return;
    expect(result.manifest.hold.findings).toEqual([
      expect.objectContaining({
        table: 'demo_prices',
        check: 'measure-shift',
        examples: ['NY: median 3,990.75 → 39,907.5'],
      }),
    ]);
  });

  it('publishes an ordinary update: a price changed, a product added', async () => {
    await lake.writePrices([
      ...PRICES.map((line) => line.replace('14250.50', '14400')),
      'heat-pump-dryer,CA,1500',
    ]);
    const result = await lake.run();
    expect(result.status).toBe('published');
    expect(await readCurrent(localLake(lake.lakeDir))).toBe(result.snapshotId);
  });

  it('says the same inputs are still held on the next run, without writing them again', async () => {
    await lake.writePrices(PRICES.filter((line) => !line.includes(',TX,')));
    const held = await lake.run({ now: () => new Date('2026-11-02T10:00:00.000Z') });
    const again = await lake.run({ now: () => new Date('2026-11-03T10:00:00.000Z') });

    expect(again).toMatchObject({ status: 'held', snapshotId: held.snapshotId, rebuild: null });
    expect(await listSnapshots(localLake(lake.lakeDir))).toHaveLength(2);
  });

  it('publishes a held snapshot after review, recording who, when and why; the next run changes nothing', async () => {
    await lake.writePrices(PRICES.filter((line) => !line.includes(',TX,')));
    const held = await lake.run();
    const review = {
      operator: 'dana',
      reason: 'TX prices withdrawn by the supplier',
      now: new Date('2026-11-04T09:00:00.000Z'),
    };
    await publishHeld(localLake(lake.lakeDir), held.snapshotId, review);

    expect(await readCurrent(localLake(lake.lakeDir))).toBe(held.snapshotId);
    const manifest = await readManifest(snapshotDir(lake.lakeDir, held.snapshotId));
    expect(manifest.review).toEqual({
      publishedAt: '2026-11-04T09:00:00.000Z',
      operator: 'dana',
      reason: 'TX prices withdrawn by the supplier',
    });
    expect(manifest.hold?.against).toBe(published);
    expect(await lake.run()).toMatchObject({ status: 'unchanged', snapshotId: held.snapshotId });
  });

  it('leaves one record per run in the lake, failed and held runs included', async () => {
    await lake.writePrices(PRICES.filter((line) => !line.includes(',TX,')));
    await lake.run({ now: () => new Date('2026-11-02T10:00:00.000Z') });
    // A file the parser cannot read at all: the run fails before anything is built.
    await writeFile(path.join(lake.sourceDir, 'prices.csv'), 'sku;price\n');
    await expect(lake.run({ now: () => new Date('2026-11-03T10:00:00.000Z') })).rejects.toThrow();

    const runs = await listRuns(localLake(lake.lakeDir));
    expect(runs.map((run) => [run.startedAt, run.trigger, run.outcome])).toEqual([
      ['2026-11-03T10:00:00.000Z', 'manual', 'failed'],
      ['2026-11-02T10:00:00.000Z', 'manual', 'held'],
      ['2026-11-01T10:00:00.000Z', 'manual', 'published'],
    ]);
    const [failed, held, first] = runs as [
      (typeof runs)[number],
      (typeof runs)[number],
      (typeof runs)[number],
    ];
    expect(failed.detail).toBe(
      `Source "demo" (${lake.sourceDir}): prices.csv has an unexpected header: sku;price`,
    );
    expect(held).toMatchObject({
      previous: published,
      sources: [{ source: 'demo', changed: true }],
      tables: { rebuilt: ['demo_prices', 'demo_region_summary', 'quarantine'], reused: [] },
      findings: { error: 0, hold: 1, warning: 0 },
      holds: [expect.objectContaining({ check: 'partition-emptied', partition: 'TX' })],
    });
    expect(first).toMatchObject({ previous: null, snapshot: published, outcome: 'published' });
    const recorded = JSON.parse(await readFile(path.join(lake.lakeDir, 'runs', `${held.id}.json`), 'utf8'));
    expect(recorded.outcome).toBe('held');
  });
});

describe('the key a table declares', () => {
  it('fails a run whose table has two rows of one key, naming the key', async () => {
    // Keyed by region, but one row per price: two regions have several.
    const byRegion: LakeTable = {
      ...tableRef(
        'prices_by_region',
        z.object({ region: z.string(), price_usd: z.number() }),
        whole(['region'], 1),
      ),
      schemaVersion: 1,
      code: [import.meta.url],
      description: 'prices, wrongly keyed by region',
      inputs: { records: [demoPriceRecordSchema] },
      build: async (ctx) =>
        (await ctx.records(demoPriceRecordSchema)).map((p) => ({ region: p.region, price_usd: p.priceUsd })),
    };
    const definitions = demoDefinitions(lake.sourceDir);
    await expect(
      lake.run({ definitions: { ...definitions, tables: [...definitions.tables, byRegion] } }),
    ).rejects.toMatchObject({
      findings: expect.arrayContaining([
        {
          table: 'prices_by_region',
          check: 'key-unique',
          severity: 'error',
          message: 'rows share a key (region), which names one row',
          count: 3,
          examples: expect.arrayContaining(['CA', 'NY', 'TX']),
        },
      ]),
    });
    expect(await readCurrent(localLake(lake.lakeDir))).toBe(published);
  });
});
