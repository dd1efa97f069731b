import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstStageCatalog, unpublishedTables } from '../../../transform/pipeline/staged-publish.ts';
import { demoCatalog } from '../../support/demo-source/demo-catalog.ts';
import { createDemoLake, type DemoLake } from '../../support/demo-source/demo-lake.ts';
import { demoPricesTable, demoRegionSummaryTable } from '../../support/demo-source/demo-tables.ts';

let lake: DemoLake;
beforeEach(async () => {
  lake = await createDemoLake();
});
afterEach(async () => {
  await lake.remove();
});

const tableNames = (catalog: { tables: readonly { name: string }[] }) => catalog.tables.map((t) => t.name);

describe('firstStageCatalog', () => {
  it('keeps the first-stage tables and every table they read, in catalog order, and every source', () => {
    const catalog = demoCatalog(lake.sourceDir);
    expect(tableNames(firstStageCatalog(catalog, [demoPricesTable]))).toEqual(['demo_prices']);
    const withInputs = firstStageCatalog(catalog, [demoRegionSummaryTable]);
    expect(tableNames(withInputs)).toEqual(['demo_region_summary', 'demo_prices']);
    expect(withInputs.sources).toEqual(catalog.sources);
    expect(withInputs.recordSchemas).toEqual(catalog.recordSchemas);
  });

  it('refuses a first-stage table the catalog does not have', () => {
    const catalog = { ...demoCatalog(lake.sourceDir), tables: [demoRegionSummaryTable] };
    expect(() => firstStageCatalog(catalog, [demoPricesTable])).toThrow(
      'first-stage table demo_prices is not in the catalog',
    );
  });
});

describe('a staged first publish', () => {
  it('publishes the first stage, then the rest reusing its files, then nothing more', async () => {
    const catalog = demoCatalog(lake.sourceDir);
    expect(await unpublishedTables(lake.lakeDir, catalog)).toEqual(['demo_region_summary', 'demo_prices']);

    const first = await lake.run({ catalog: firstStageCatalog(catalog, [demoPricesTable]) });
    if (first.status !== 'published') throw new Error('expected the first stage to publish');
    expect(Object.keys(first.manifest.tables).sort()).toEqual(['demo_prices', 'quarantine']);
    expect(await unpublishedTables(lake.lakeDir, catalog)).toEqual(['demo_region_summary']);

    const second = await lake.run({ catalog });
    if (second.status !== 'published') throw new Error('expected the whole catalog to publish');
    expect(second.previous).toBe(first.snapshotId);
    expect(second.rebuild).toBe(
      'changed: new table demo_region_summary; rebuilding demo_region_summary (changed), ' +
        'demo_prices (read by a changed table); reusing 1 table',
    );
    expect(second.manifest.tables.demo_prices!.sha256).toBe(first.manifest.tables.demo_prices!.sha256);
    expect(await unpublishedTables(lake.lakeDir, catalog)).toEqual([]);

    // A later start finds the lake complete: the same run publishes nothing.
    expect(await lake.run({ catalog })).toEqual({ status: 'unchanged', snapshotId: second.snapshotId });
  });
});
