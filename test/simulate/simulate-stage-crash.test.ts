import { localLake } from '../../data-lake/lake.ts';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REM_RESULTS_TOPIC } from '../../schemas/rem-stage.ts';
import { readCurrent } from '../../data-lake/current-pointer.ts';
import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import {
  createRemLake,
  keysOnLog,
  REM_TEST_ENV,
  RESULTS_PAUSE_MARKER,
  type RemLake,
} from '../support/rem-stage/rem-lake.ts';

const childScript = fileURLToPath(new URL('../support/rem-stage/rem-pipeline-child.ts', import.meta.url));

let lake: RemLake;
beforeEach(async () => {
  lake = await createRemLake();
});
afterEach(() => lake.remove());

/** Runs the pipeline in a child process and kills it with SIGKILL once its first results are on the log. */
async function killAfterFirstResults(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript], {
    env: {
      ...process.env,
      ...REM_TEST_ENV,
      LAKE_DIR: lake.lakeDir,
      REM_SOURCE_DIR: lake.sourceDir,
      REM_PAUSE_AFTER_RESULTS: '1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(RESULTS_PAUSE_MARKER)) resolve();
    });
    child.on('exit', (code) =>
      reject(new Error(`child exited (${code}) before its first results: ${stderr}`)),
    );
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('a pipeline killed with SIGKILL in the middle of the simulate stage', () => {
  it('publishes nothing, and the next run computes only the missing clusters and holds each once', async () => {
    await killAfterFirstResults();
    expect(await readCurrent(localLake(lake.lakeDir))).toBeNull();
    const before = await keysOnLog(lake.lakeDir, REM_RESULTS_TOPIC);
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(40);

    const run = await lake.run();
    if (run.status !== 'published') throw new Error(`expected a publish, got ${run.status}`);
    // The results of the killed run were kept: every cluster has exactly one result on the log.
    const after = await keysOnLog(lake.lakeDir, REM_RESULTS_TOPIC);
    expect(after).toHaveLength(40);
    expect(new Set(after).size).toBe(40);
    const snapshot = await openSnapshot(localLake(lake.lakeDir), run.snapshotId);
    const ids = (await snapshot.rows('rem_clusters')).map((c) => c.cluster_id as string);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  }, 120_000);
});
