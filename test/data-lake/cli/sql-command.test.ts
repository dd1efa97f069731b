import { localLake } from '../../../data-lake/lake.ts';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlCommand } from '../../../data-lake/cli/sql-command.ts';
import { createDemoLake, type DemoLake } from '../../support/demo-source/demo-lake.ts';

let lake: DemoLake;
let firstId: string;
let currentId: string;

beforeAll(async () => {
  lake = await createDemoLake();
  firstId = (await lake.run()).snapshotId;
  await lake.writePrices(['heat-pump,CA,14000', 'heat-pump,NY,13000']);
  currentId = (await lake.run()).snapshotId;
});
afterAll(async () => {
  await lake.remove();
});

async function sql(
  argv: string[],
  stdinText = '',
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdin = new PassThrough();
  stdin.end(stdinText);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  stderr.on('data', (c: Buffer) => err.push(c.toString()));
  const code = await sqlCommand(argv, localLake(lake.lakeDir), { stdin, stdout, stderr });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('npm run sql', () => {
  it('answers a query given with -c over views of the published snapshot', async () => {
    const { code, stdout, stderr } = await sql([
      '-c',
      'SELECT region, items, average_price_usd FROM demo_region_summary ORDER BY region',
    ]);

    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'region | items | average_price_usd',
        '-------+-------+------------------',
        'CA     | 1     | 14000',
        'NY     | 1     | 13000',
        '(2 rows)',
        '',
      ].join('\n'),
    );
    const dir = path.join(lake.lakeDir, 'snapshots', currentId);
    expect(stderr).toContain(`--   demo_prices: read_parquet('${path.join(dir, 'demo_prices.parquet')}')`);
    expect(stderr).toContain(`--   quarantine: read_parquet('${path.join(dir, 'quarantine.parquet')}')`);
  });

  it('queries an older snapshot with --snapshot, and reads statements from stdin without -c', async () => {
    const { code, stdout } = await sql(
      ['--snapshot', firstId],
      'SELECT count(*) AS quotes FROM demo_prices; SELECT 1 AS one;',
    );
    expect(code).toBe(0);
    expect(stdout).toBe(['quotes', '------', '6', '(1 row)', 'one', '---', '1', '(1 row)', ''].join('\n'));
  });

  it('reports a SQL error with exit code 1 and an unknown snapshot as a usage error', async () => {
    const failed = await sql(['-c', 'SELECT nope FROM demo_prices']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/SQL error: Binder Error: Referenced column "nope" not found/);
    await expect(sql(['--snapshot', 'no-such-id', '-c', 'SELECT 1'])).rejects.toThrow(
      'no snapshot "no-such-id"',
    );
  });

  it('runs as `npm run sql -- -c` from the command line', () => {
    const script = fileURLToPath(new URL('../../../data-lake/cli/sql.ts', import.meta.url));
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', script, '-c', 'SELECT max(price_cents) AS top FROM demo_prices'],
      {
        env: { ...process.env, LAKE_DIR: lake.lakeDir },
        encoding: 'utf8',
      },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(['top', '-------', '1400000', '(1 row)', ''].join('\n'));
  }, 60_000);
});
