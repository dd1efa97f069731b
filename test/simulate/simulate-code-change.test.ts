import { spawn } from 'node:child_process';
import { cp, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import { REM_RESULTS_TOPIC } from '../../schemas/rem-stage.ts';
import { keysOnLog, REM_TEST_ENV } from '../support/rem-stage/rem-lake.ts';

/**
 * An edit to the sampler's code, in a copy of the repository: the pipeline over the REM fixture, run from
 * that copy as `npm run pipeline` would, must recompute every cluster after a change to what runs, and
 * nothing after a change to a comment. No version is bumped by hand in either case.
 */
let root: string;
let checkout: string;
let lakeDir: string;
it.beforeAll(async ({ fileTempDir }) => {
  root = fileTempDir;
  checkout = path.join(root, 'checkout');
  lakeDir = path.join(root, 'lake');
  for (const entry of [
    'package.json',
    'tsconfig.json',
    'schemas',
    'lib',
    'eventlog',
    'data-lake',
    'model',
    'ingest',
    'transform',
    'simulate',
    'pipeline',
  ]) {
    // Not the default lake root under data-lake/ (generated, possibly large).
    await cp(path.join(REPOSITORY_ROOT, entry), path.join(checkout, entry), {
      recursive: true,
      filter: (source) => source !== path.join(REPOSITORY_ROOT, 'data-lake', 'local'),
    });
  }
  await cp(path.join(REPOSITORY_ROOT, 'test/support'), path.join(checkout, 'test/support'), {
    recursive: true,
  });
  await symlink(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(checkout, 'node_modules'));
});

/** `npm run pipeline` over the REM fixture, from the copy: its printed lines. */
async function pipelineFromCopy(): Promise<string[]> {
  const script = path.join(checkout, 'test/support/rem-stage/rem-pipeline-child.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: checkout,
    env: {
      ...process.env,
      ...REM_TEST_ENV,
      LAKE_DIR: lakeDir,
      REM_SOURCE_DIR: path.join(checkout, 'test/support/rem-stage/data'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`pipeline exited ${code}: ${stderr}`);
  return stdout.trim().split('\n');
}

async function edit(file: string, from: string, to: string): Promise<void> {
  const target = path.join(checkout, file);
  const text = await readFile(target, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no "${from}"`);
  await writeFile(target, text.replace(from, to));
}

describe('a change to the simulate code', () => {
  it('recomputes every cluster when the sampler changes, and nothing when only a comment does', async () => {
    expect((await pipelineFromCopy()).at(-1)).toMatch(/^published snapshot /);
    expect(await keysOnLog(lakeDir, REM_RESULTS_TOPIC)).toHaveLength(40);

    await edit(
      'model/parameters/housing-stock.ts',
      'export const FLOOR_AREA_LOG_SD',
      '// Wider.\nexport const FLOOR_AREA_LOG_SD',
    );
    expect(await pipelineFromCopy()).toEqual([
      expect.stringMatching(/^no changes: snapshot \S+ is current$/),
    ]);

    await edit('model/parameters/housing-stock.ts', 'FLOOR_AREA_LOG_SD = 0.33', 'FLOOR_AREA_LOG_SD = 0.35');
    const lines = await pipelineFromCopy();
    expect(lines.at(-1)).toMatch(
      /^published snapshot .*; changed: code of rem_clusters; rebuilding rem_clusters, rem_cluster_statistics, health_county_impacts \(changed\), /,
    );
    const results = await keysOnLog(lakeDir, REM_RESULTS_TOPIC);
    expect(results).toHaveLength(80);
    expect(new Set(results).size).toBe(40);
  }, 120_000);
});
