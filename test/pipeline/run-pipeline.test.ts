import { localLake } from '../../data-lake/lake.ts';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/log.ts';
import { EmbeddedEventLog } from '../../eventlog/embedded-log.ts';
import { readCurrent } from '../../data-lake/current-pointer.ts';
import { LakeBusyError } from '../../data-lake/lake-lock.ts';
import { sha256OfFile } from '../../data-lake/parquet-file.ts';
import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import { AuditFailedError } from '../../pipeline/audit-failed-error.ts';
import type { PipelineResult } from '../../pipeline/run-pipeline.ts';
import { TRANSFORM_GROUP, transformTopics } from '../../transform/transform-consumer.ts';
import { demoPriceRecordSchema } from '../support/demo-source/demo-records.ts';
import { z } from 'zod';
import { IngestError } from '../../ingest/ingest-job.ts';
import { sqlOffendersFinding } from '../../transform/tables/audit-findings.ts';
import type { BuildContext, ChunkedLakeTable, LakeTable } from '../../transform/tables/lake-table.ts';
import { recordSchema } from '../../schemas/record-schema.ts';
import { tableRef } from '../../data-lake/tables/table-ref.ts';
import { whole } from '../../data-lake/tables/table-contract.ts';
import { demoDefinitions } from '../support/demo-source/demo-definitions.ts';
import { createDemoLake, type DemoLake } from '../support/demo-source/demo-lake.ts';
import { DEMO_PRICES } from '../support/demo-source/demo-tables.ts';

let lake: DemoLake;
beforeEach(async () => {
  lake = await createDemoLake();
});
afterEach(async () => {
  await lake.remove();
});

/** The lake's snapshot directories; none before the first snapshot is stored. */
async function snapshotDirs(): Promise<string[]> {
  return (await readdir(path.join(lake.lakeDir, 'snapshots')).catch(() => [])).sort();
}

/** Every file below a directory (relative path → content), to compare staging byte for byte. */
async function filesBelow(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  return Object.fromEntries(
    await Promise.all(files.sort().map(async (f) => [f, await readFile(path.join(dir, f), 'utf8')])),
  );
}

function tableChecksums(result: PipelineResult): Record<string, string> {
  if (result.status !== 'published') throw new Error('expected a publish');
  return Object.fromEntries(Object.entries(result.manifest.tables).map(([name, t]) => [name, t.sha256]));
}

describe('runPipeline over the demo source', () => {
  it('writes, audits and publishes a first snapshot with its manifest', async () => {
    const result = await lake.run({ now: () => new Date('2026-11-21T16:00:00.000Z') });

    expect(result.status).toBe('published');
    if (result.status !== 'published') return;
    expect(result.snapshotId).toMatch(/^20261121T160000000Z-[0-9a-f]{8}$/);
    expect(result.previous).toBeNull();
    expect(await readCurrent(localLake(lake.lakeDir))).toBe(result.snapshotId);
    expect(await snapshotDirs()).toEqual([result.snapshotId]);

    const { manifest } = result;
    expect(manifest).toMatchObject({
      id: result.snapshotId,
      createdAt: '2026-11-21T16:00:00.000Z',
      parent: null,
      codeVersion: 'test',
      audit: [],
    });
    expect(manifest.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(manifest.tables).sort()).toEqual(['demo_prices', 'demo_region_summary', 'quarantine']);
    expect(manifest.tables.demo_prices).toMatchObject({
      file: 'demo_prices.parquet',
      rows: 6,
      schemaVersion: 1,
      description: 'Appliance price quotes of the demo source',
      inputs: { records: ['demo-price'], tables: [] },
    });
    expect(manifest.tables.demo_region_summary).toMatchObject({
      rows: 2,
      inputs: { records: [], tables: ['demo_prices'] },
    });
    expect(manifest.tables.quarantine).toMatchObject({
      rows: 0,
      inputs: { records: ['demo-price'], tables: [] },
    });
    expect(manifest.sources.demo).toMatchObject({
      kind: 'demo-prices',
      location: lake.sourceDir,
      records: { 'demo-price': { accepted: 6, quarantined: 0 } },
    });
    const dir = path.join(lake.lakeDir, 'snapshots', result.snapshotId);
    for (const table of Object.values(manifest.tables)) {
      expect(await sha256OfFile(path.join(dir, table.file))).toBe(table.sha256);
    }
    expect(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'))).toEqual(manifest);
  });

  it('serves the built rows back with integers as numbers and JSON columns as values', async () => {
    const result = await lake.run();
    const snapshot = await openSnapshot(localLake(lake.lakeDir), result.snapshotId);

    expect(await snapshot.rows('demo_prices')).toEqual([
      {
        item: 'heat-pump-water-heater',
        region: 'CA',
        price_usd: 4200,
        price_cents: 420000,
        labels: ['heat', 'pump', 'water', 'heater'],
        note: null,
      },
      {
        item: 'heat-pump-water-heater',
        region: 'NY',
        price_usd: 3990.75,
        price_cents: 399075,
        labels: ['heat', 'pump', 'water', 'heater'],
        note: null,
      },
      {
        item: 'heat-pump',
        region: 'CA',
        price_usd: 14250.5,
        price_cents: 1425050,
        labels: ['heat', 'pump'],
        note: 'major appliance',
      },
      {
        item: 'heat-pump',
        region: 'NY',
        price_usd: 13100,
        price_cents: 1310000,
        labels: ['heat', 'pump'],
        note: 'major appliance',
      },
      {
        item: 'induction-stove',
        region: 'CA',
        price_usd: 1899.99,
        price_cents: 189999,
        labels: ['induction', 'stove'],
        note: null,
      },
      {
        item: 'induction-stove',
        region: 'NY',
        price_usd: 1750,
        price_cents: 175000,
        labels: ['induction', 'stove'],
        note: null,
      },
    ]);
    expect(await snapshot.rows('demo_region_summary')).toEqual([
      { region: 'CA', items: 3, average_price_usd: 6783.5 },
      { region: 'NY', items: 3, average_price_usd: 6280.25 },
    ]);
  });

  it('quarantines invalid records with the zod reason and counts them, without blocking the rest', async () => {
    await lake.writePrices([
      'heat-pump,CA,14250.50',
      'heat-pump,TX,n/a',
      'induction-stove,california,1899',
      'induction-stove,NY,1750',
    ]);
    const result = await lake.run();
    if (result.status !== 'published') throw new Error('expected a publish');

    expect(result.manifest.sources.demo!.records).toEqual({ 'demo-price': { accepted: 2, quarantined: 2 } });
    expect(result.manifest.tables.demo_prices!.rows).toBe(2);
    const snapshot = await openSnapshot(localLake(lake.lakeDir), result.snapshotId);
    expect(await snapshot.rows('quarantine')).toEqual([
      {
        source: 'demo',
        schema: 'demo-price',
        key: 'heat-pump/TX',
        reason: 'priceUsd: Invalid input: expected number, received string',
        payload: { item: 'heat-pump', region: 'TX', priceUsd: 'n/a' },
      },
      {
        source: 'demo',
        schema: 'demo-price',
        key: 'induction-stove/california',
        reason: 'region: must be a two-letter state code',
        payload: { item: 'induction-stove', region: 'california', priceUsd: 1899 },
      },
    ]);
  });

  it('records audit warnings in the manifest and still publishes', async () => {
    await lake.writePrices(['heat-pump,CA,14000', 'heat-pump,NY,13000', 'induction-stove,NY,1750']);
    const result = await lake.run();
    if (result.status !== 'published') throw new Error('expected a publish');
    expect(result.manifest.audit).toEqual([
      {
        table: 'demo_region_summary',
        check: 'thin-region',
        severity: 'warning',
        message: 'regions with a single quote',
        count: 1,
        examples: ['CA'],
      },
    ]);
  });

  it('logs audit warnings in one info line, and a warning the published table did not have at warn', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = createLogger('info', 'pipeline', {
      write: (line: string) => void lines.push(JSON.parse(line)),
    });
    const logged = (level: number) => lines.filter((line) => line.level === level).map((line) => line.msg);
    await lake.writePrices(['heat-pump,CA,14000', 'heat-pump,NY,13000', 'induction-stove,NY,1750']);
    await lake.run({ logger });
    expect(logged(40)).toEqual([]);
    expect(logged(30)).toContain(
      "1 audit warning recorded in the snapshot's manifest (0 new since the published snapshot; npm run lake -- show lists them)",
    );

    lines.length = 0;
    await lake.writePrices(['heat-pump,CA,14100', 'heat-pump,NY,13000', 'induction-stove,NY,1750']);
    await lake.run({ logger });
    expect(logged(40)).toEqual([]);

    lines.length = 0;
    await lake.writePrices([
      'heat-pump,CA,14100',
      'induction-stove,CA,1800',
      'heat-pump,NY,13000',
      'induction-stove,NY,1750',
    ]);
    await lake.run({ logger });
    await lake.writePrices(['heat-pump,CA,14100', 'induction-stove,CA,1800', 'heat-pump,NY,13000']);
    lines.length = 0;
    await lake.run({ logger });
    expect(logged(40)).toEqual([
      'new audit warning: table demo_region_summary, thin-region: regions with a single quote',
    ]);
  });

  it('blocks the publish on an audit error, names table, check and examples, and leaves CURRENT alone', async () => {
    const first = await lake.run();
    await lake.writePrices([
      'heat-pump,CA,900000',
      'heat-pump,NY,13100',
      'induction-stove,CA,1899.99',
      'induction-stove,NY,1750',
    ]);

    const failure = await lake.run().catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(AuditFailedError);
    expect((failure as Error).message).toBe(
      [
        'audit blocked the publish: 1 error finding',
        '  - table demo_region_summary, check price-ceiling (1): average price above 100000 USD',
        '      e.g. CA: 450950',
      ].join('\n'),
    );
    expect(await readCurrent(localLake(lake.lakeDir))).toBe(first.snapshotId);
    expect(await snapshotDirs()).toEqual([first.snapshotId]);
  });

  it('publishes nothing new when sources, tables and code are unchanged', async () => {
    const first = await lake.run();
    const second = await lake.run();

    expect(second).toEqual({ status: 'unchanged', snapshotId: first.snapshotId });
    expect(await snapshotDirs()).toEqual([first.snapshotId]);
    // The commit is recorded as provenance, not hashed: a commit that changes no table's code (docs, say)
    // publishes nothing.
    expect(await lake.run({ codeVersion: 'git:another-commit' })).toEqual(second);
  });

  it('publishes a new snapshot whose parent is the previous one when a source changes', async () => {
    const first = await lake.run();
    await lake.writePrices([
      'heat-pump,CA,14000',
      'heat-pump,NY,13000',
      'induction-stove,CA,1800',
      'induction-stove,NY,1700',
    ]);
    const second = await lake.run();

    if (second.status !== 'published') throw new Error('expected a publish');
    expect(second.previous).toBe(first.snapshotId);
    expect(second.manifest.parent).toBe(first.snapshotId);
    expect(second.manifest.fingerprint).not.toBe(
      (first as { manifest: { fingerprint: string } }).manifest.fingerprint,
    );
    expect(await readCurrent(localLake(lake.lakeDir))).toBe(second.snapshotId);
    expect(second.manifest.tables.demo_prices!.rows).toBe(4);
    expect(second.rebuild).toMatch(
      /^changed: source demo \S+ → \S+; rebuilding demo_prices, demo_region_summary, quarantine \(changed\); reusing 0 tables$/,
    );
    expect(await snapshotDirs()).toEqual([first.snapshotId, second.snapshotId].sort());
  });

  it('replaying the log from the start (group reset, staging wiped) stages the same bytes and builds the same tables', async () => {
    await lake.run();
    await lake.writePrices([
      'heat-pump,CA,14000',
      'heat-pump,TX,n/a',
      'induction-stove,CA,1800',
      'induction-stove,NY,1700',
    ]);
    const original = await lake.run();
    const stagingDir = path.join(lake.lakeDir, 'staging');
    const staged = await filesBelow(stagingDir);

    const log = await EmbeddedEventLog.open({ directory: path.join(lake.lakeDir, 'log') });
    await log.resetGroup(TRANSFORM_GROUP, transformTopics([demoPriceRecordSchema]));
    await log.close();
    await rm(stagingDir, { recursive: true });
    // With no snapshot published, the replay builds every table instead of finding nothing changed.
    await rm(path.join(lake.lakeDir, 'CURRENT'));
    const replayed = await lake.run();

    expect(await filesBelow(stagingDir)).toEqual(staged);
    expect(tableChecksums(replayed)).toEqual(tableChecksums(original));
  });

  it('refuses a run while another one holds the lake', async () => {
    const outcomes = await Promise.allSettled([lake.run(), lake.run()]);

    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected')!;
    expect(refused.reason).toBeInstanceOf(LakeBusyError);
    expect(await snapshotDirs()).toHaveLength(1);
  });

  it('lets a run wait for the one in progress, which then finds nothing changed', async () => {
    const outcomes = await Promise.all([lake.run({ lockWaitMs: 60_000 }), lake.run({ lockWaitMs: 60_000 })]);

    expect(outcomes.map((o) => o.status).sort()).toEqual(['published', 'unchanged']);
    expect(new Set(outcomes.map((o) => o.snapshotId)).size).toBe(1);
  });

  it('refuses a build that reads a table, a record schema or the event log it does not declare', async () => {
    const reading = (name: string, read: (ctx: BuildContext<never>) => Promise<unknown>): LakeTable => ({
      ...tableRef(name, z.object({ id: z.string() }), whole(['id'], 1)),
      schemaVersion: 1,
      code: [import.meta.url],
      description: name,
      inputs: { records: [demoPriceRecordSchema] },
      build: async (ctx) => {
        await read(ctx);
        return [];
      },
    });
    const definitions = demoDefinitions(lake.sourceDir);
    const runWith = (table: LakeTable) =>
      lake.run({ definitions: { ...definitions, tables: [...definitions.tables, table] } });
    await expect(runWith(reading('peeks_table', (ctx) => ctx.table(DEMO_PRICES)))).rejects.toThrow(
      'table peeks_table: build failed: table peeks_table: reads table "demo_prices" without declaring it in inputs.tables',
    );
    const other = recordSchema('other-price', z.object({}));
    await expect(runWith(reading('peeks_records', (ctx) => ctx.records(other)))).rejects.toThrow(
      'reads record schema "other-price" without declaring it in inputs.records',
    );
    await expect(runWith(reading('peeks_log', (ctx) => ctx.eventLog()))).rejects.toThrow(
      'table peeks_log: opens the event log without declaring inputs.topics',
    );
    expect(await readCurrent(localLake(lake.lakeDir))).toBeNull();
  });

  it('fails without publishing when a source cannot be read, and when a table build throws', async () => {
    const first = await lake.run();
    await lake.writePrices(['heat-pump,CA,14000']);
    const broken: LakeTable = {
      name: 'broken',
      schemaVersion: 1,
      code: [import.meta.url],
      description: 'always fails',
      row: z.object({ id: z.string() }),
      contract: whole(['id'], 1),
      inputs: { records: [demoPriceRecordSchema] },
      build: async () => {
        throw new Error('upstream lookup missing');
      },
    };
    const definitions = demoDefinitions(lake.sourceDir);
    await expect(
      lake.run({ definitions: { ...definitions, tables: [...definitions.tables, broken] } }),
    ).rejects.toThrow('table broken: build failed: upstream lookup missing');

    await writeFile(path.join(lake.sourceDir, 'prices.csv'), 'sku;price\n');
    await expect(lake.run()).rejects.toThrow(IngestError);
    expect(await readCurrent(localLake(lake.lakeDir))).toBe(first.snapshotId);
    expect(await snapshotDirs()).toEqual([first.snapshotId]);
  });

  it('blocks the publish when built rows do not match the table row schema', async () => {
    const mislabeled: LakeTable = {
      name: 'mislabeled',
      schemaVersion: 1,
      code: [import.meta.url],
      description: 'prices with a wrong type',
      row: z.object({ item: z.string(), cents: z.int() }),
      contract: whole(['item'], 1),
      inputs: { records: [demoPriceRecordSchema] },
      build: async (ctx) =>
        (await ctx.records(demoPriceRecordSchema)).map((p) => ({
          item: p.item,
          cents: p.priceUsd,
        })),
    };
    const definitions = demoDefinitions(lake.sourceDir);
    const failure = await lake
      .run({ definitions: { ...definitions, tables: [...definitions.tables, mislabeled] } })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(AuditFailedError);
    expect((failure as AuditFailedError).findings).toEqual([
      {
        table: 'mislabeled',
        check: 'row-schema',
        severity: 'error',
        message: "3 of 6 built rows do not match the table's row schema",
        count: 3,
        examples: [
          'row 1: cents: Invalid input: expected int, received number',
          'row 2: cents: Invalid input: expected int, received number',
          'row 4: cents: Invalid input: expected int, received number',
        ],
      },
    ]);
    expect(await readCurrent(localLake(lake.lakeDir))).toBeNull();
  });

  describe('a table built in chunks', () => {
    const quotes = (overrides: Partial<ChunkedLakeTable> = {}): ChunkedLakeTable => ({
      name: 'quotes_in_cents',
      schemaVersion: 1,
      code: [import.meta.url],
      description: 'price quotes in cents, written one quote per chunk',
      row: z.object({ item: z.string(), region: z.string(), cents: z.int() }),
      contract: whole(['item', 'region'], 1),
      inputs: { records: [demoPriceRecordSchema], tables: [DEMO_PRICES] },
      chunked: true,
      orderBy: 'region, item',
      async build(ctx, write) {
        for (const q of (await ctx.records(demoPriceRecordSchema)).reverse())
          await write([{ item: q.item, region: q.region, cents: Math.round(q.priceUsd * 100) }]);
      },
      audit: (ctx) =>
        sqlOffendersFinding(
          ctx.db,
          'quotes_in_cents',
          'over_ten_thousand',
          'warning',
          'quotes over $10,000',
          "SELECT item || ' ' || region AS offender, rowid AS position FROM quotes_in_cents WHERE cents > 1000000",
        ),
      ...overrides,
    });
    const runWith = (table: ChunkedLakeTable) => {
      const definitions = demoDefinitions(lake.sourceDir);
      return lake.run({ definitions: { ...definitions, tables: [...definitions.tables, table] } });
    };

    it('stores the rows of every chunk in its declared order and audits them in SQL', async () => {
      const result = await runWith(quotes());
      if (result.status !== 'published') throw new Error('expected a publish');

      expect(result.manifest.tables.quotes_in_cents).toMatchObject({ rows: 6 });
      expect(result.manifest.audit).toEqual([
        {
          table: 'quotes_in_cents',
          check: 'over_ten_thousand',
          severity: 'warning',
          message: 'quotes over $10,000',
          count: 2,
          examples: ['heat-pump CA', 'heat-pump NY'],
        },
      ]);
      const snapshot = await openSnapshot(localLake(lake.lakeDir), result.snapshotId);
      expect(await snapshot.rows('quotes_in_cents')).toEqual([
        { item: 'heat-pump', region: 'CA', cents: 1425050 },
        { item: 'heat-pump-water-heater', region: 'CA', cents: 420000 },
        { item: 'induction-stove', region: 'CA', cents: 189999 },
        { item: 'heat-pump', region: 'NY', cents: 1310000 },
        { item: 'heat-pump-water-heater', region: 'NY', cents: 399075 },
        { item: 'induction-stove', region: 'NY', cents: 175000 },
      ]);
    });

    it('counts rows its schema rejects across chunks, and a build that fails midway publishes nothing', async () => {
      const dollars = quotes({
        row: z.object({ item: z.string(), region: z.string(), cents: z.int().max(1_000_000) }),
        audit: undefined,
      });
      const failure = await runWith(dollars).catch((e: unknown) => e);
      expect((failure as AuditFailedError).findings).toEqual([
        {
          table: 'quotes_in_cents',
          check: 'row-schema',
          severity: 'error',
          message: "2 of 6 built rows do not match the table's row schema",
          count: 2,
          examples: [
            'row 2: cents: Too big: expected number to be <=1000000',
            'row 3: cents: Too big: expected number to be <=1000000',
          ],
        },
      ]);

      const halfway = quotes({
        async build(_ctx, write) {
          await write([{ item: 'heat-pump', region: 'CA', cents: 1425050 }]);
          throw new Error('the log went away');
        },
      });
      await expect(runWith(halfway)).rejects.toThrow(
        'table quotes_in_cents: build failed: the log went away',
      );
      expect(await readCurrent(localLake(lake.lakeDir))).toBeNull();
      expect(await snapshotDirs()).toEqual([]);
    });
  });
});
