import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../lib/log.ts';
import { EXIT_BUSY, pipelineCommand } from '../../../transform/cli/pipeline-command.ts';
import { acquireLakeLock } from '../../../transform/lake/lake-lock.ts';
import { demoCatalog } from '../../support/demo-source/demo-catalog.ts';
import { createDemoLake, type DemoLake } from '../../support/demo-source/demo-lake.ts';

let lake: DemoLake;
beforeEach(async () => {
  lake = await createDemoLake();
});
afterEach(async () => {
  await lake.remove();
});

async function command(): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await pipelineCommand({
    config: lake.config,
    logger: createLogger('silent'),
    catalog: demoCatalog(lake.sourceDir),
    codeVersion: 'test',
    print: (line) => out.push(line),
    printError: (line) => err.push(line),
  });
  return { code, out, err };
}

describe('npm run pipeline', () => {
  it('exits 0 with a summary when it publishes, and 0 again when nothing changed', async () => {
    const published = await command();
    expect(published.code).toBe(0);
    expect(published.out).toEqual([
      'first snapshot: building all 3 tables',
      expect.stringMatching(
        /^published snapshot (\S+) \(previous: none\): demo_prices \(6 rows\), demo_region_summary \(2 rows\), quarantine \(0 rows\)$/,
      ),
    ]);
    const id = /^published snapshot (\S+)/.exec(published.out[1]!)![1];

    expect(await command()).toEqual({ code: 0, out: [`no changes: snapshot ${id} is current`], err: [] });
  });

  it('exits 1 saying nothing was published when the audit blocks the run', async () => {
    await lake.writePrices(['heat-pump,CA,900000', 'heat-pump,NY,900000']);
    const { code, out, err } = await command();
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([
      'pipeline failed, nothing was published (the served snapshot is unchanged): audit blocked the publish: 1 error finding\n' +
        '  - table demo_region_summary, check price-ceiling (2): average price above 100000 USD\n' +
        '      e.g. CA: 900000\n' +
        '      e.g. NY: 900000',
    ]);
  });

  it('exits 75 (try again later) while another run holds the lake', async () => {
    const other = await acquireLakeLock(lake.lakeDir, { purpose: 'pipeline run' });
    const { code, err } = await command();
    await other.release();
    expect(code).toBe(EXIT_BUSY);
    expect(err[0]).toMatch(/^pipeline not run: the lake is busy: pipeline run \(pid \d+ on /);
  });
});
