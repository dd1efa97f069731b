import { localLake } from '../../data-lake/lake.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.ts';
import {
  firstAnswersConfig,
  firstStageCatalog,
  lacksAll,
  staleTables,
} from '../../pipeline/staged-publish.ts';
import type { AnyLakeTable } from '../../transform/tables/lake-table.ts';
import { demoDefinitions } from '../support/demo-source/demo-definitions.ts';
import { createDemoLake, type DemoLake } from '../support/demo-source/demo-lake.ts';
import { demoPricesTable, demoRegionSummaryTable } from '../support/demo-source/demo-tables.ts';

let lake: DemoLake;
beforeEach(async () => {
  lake = await createDemoLake();
});
afterEach(async () => {
  await lake.remove();
});

const tableNames = (definitions: { tables: readonly { name: string }[] }) =>
  definitions.tables.map((t) => t.name);

describe('firstStageCatalog', () => {
  it('keeps the first-stage tables and every table they read, in definitions order, and every source', () => {
    const definitions = demoDefinitions(lake.sourceDir);
    expect(tableNames(firstStageCatalog(definitions, [demoPricesTable]))).toEqual(['demo_prices']);
    const withInputs = firstStageCatalog(definitions, [demoRegionSummaryTable]);
    expect(tableNames(withInputs)).toEqual(['demo_region_summary', 'demo_prices']);
    expect(withInputs.sources).toEqual(definitions.sources);
    expect(withInputs.recordSchemas).toEqual(definitions.recordSchemas);
  });

  it('refuses a first-stage table the definitions does not have', () => {
    const definitions = { ...demoDefinitions(lake.sourceDir), tables: [demoRegionSummaryTable] };
    expect(() => firstStageCatalog(definitions, [demoPricesTable])).toThrow(
      'first-stage table demo_prices is not in the definitions',
    );
  });
});

describe('firstAnswersConfig', () => {
  it('precomputes no REM state and the health of the sample states among those configured', () => {
    const quick = firstAnswersConfig(loadConfig({}));
    expect([quick.REM_STATES, quick.HEALTH_STATES]).toEqual([[], ['RI', 'MA', 'CO']]);
    const some = firstAnswersConfig(loadConfig({ REM_STATES: 'all', HEALTH_STATES: 'TX,MA,CO' }));
    expect([some.REM_STATES, some.HEALTH_STATES]).toEqual([[], ['MA', 'CO']]);
    expect(firstAnswersConfig(loadConfig({ HEALTH_STATES: 'none' })).HEALTH_STATES).toEqual([]);
  });
});

describe('staleTables', () => {
  // The summary as a table that reads the settings the quick stage changes, as the REM clusters do.
  const summary = { ...demoRegionSummaryTable, settings: ['REM_STATES', 'HEALTH_STATES'] } as AnyLakeTable;
  const catalogOf = () => ({
    ...demoDefinitions(lake.sourceDir),
    tables: [summary, demoPricesTable as AnyLakeTable],
  });

  it('names a table built on the quick stage’s settings, so a start stopped after that stage goes on', async () => {
    const definitions = catalogOf();
    await lake.run({ definitions, config: firstAnswersConfig(lake.config) });
    expect(await staleTables(localLake(lake.lakeDir), definitions, lake.config)).toEqual([
      'demo_region_summary',
    ]);
    await lake.run({ definitions });
    expect(await staleTables(localLake(lake.lakeDir), definitions, lake.config)).toEqual([]);
    expect(await lacksAll(localLake(lake.lakeDir), [summary])).toBe(false);
  });

  it('leaves a table built on other settings as it is: a national lake is not shrunk by a start', async () => {
    const definitions = catalogOf();
    await lake.run({ definitions, config: loadConfig({ LAKE_DIR: lake.lakeDir, REM_STATES: 'all' }) });
    expect(await staleTables(localLake(lake.lakeDir), definitions, lake.config)).toEqual([]);
  });
});

describe('a staged first publish', () => {
  it('publishes the first stage, then the rest reusing its files, then nothing more', async () => {
    const definitions = demoDefinitions(lake.sourceDir);
    expect(await staleTables(localLake(lake.lakeDir), definitions, lake.config)).toEqual([
      'demo_region_summary',
      'demo_prices',
    ]);

    const first = await lake.run({ definitions: firstStageCatalog(definitions, [demoPricesTable]) });
    if (first.status !== 'published') throw new Error('expected the first stage to publish');
    expect(Object.keys(first.manifest.tables).sort()).toEqual(['demo_prices', 'quarantine']);
    expect(await lacksAll(localLake(lake.lakeDir), [demoRegionSummaryTable as AnyLakeTable])).toBe(true);
    expect(await staleTables(localLake(lake.lakeDir), definitions, lake.config)).toEqual([
      'demo_region_summary',
    ]);

    const second = await lake.run({ definitions });
    if (second.status !== 'published') throw new Error('expected the whole definitions to publish');
    expect(second.previous).toBe(first.snapshotId);
    expect(second.rebuild).toBe(
      'changed: new table demo_region_summary; rebuilding demo_region_summary (changed), ' +
        'demo_prices (read by a changed table); reusing 1 table',
    );
    expect(second.manifest.tables.demo_prices!.sha256).toBe(first.manifest.tables.demo_prices!.sha256);
    expect(await staleTables(localLake(lake.lakeDir), definitions, lake.config)).toEqual([]);

    // A later start finds the lake complete: the same run publishes nothing.
    expect(await lake.run({ definitions })).toEqual({ status: 'unchanged', snapshotId: second.snapshotId });
  });
});
