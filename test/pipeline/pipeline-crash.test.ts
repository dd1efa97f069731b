import { localLake } from '../../data-lake/lake.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAUSED_MARKER } from '../../pipeline/cli/pause-hook.ts';
import { readCurrent } from '../../data-lake/current-pointer.ts';
import { LakeBusyError } from '../../data-lake/lake-lock.ts';
import { sha256OfFile } from '../../data-lake/parquet-file.ts';
import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import type { PipelineStep } from '../../pipeline/pipeline-step.ts';
import { createDemoLake, type DemoLake } from '../support/demo-source/demo-lake.ts';

const childScript = fileURLToPath(new URL('../support/demo-source/demo-pipeline-child.ts', import.meta.url));
const NEW_PRICES = [
  'heat-pump,CA,14000',
  'heat-pump,NY,13000',
  'induction-stove,CA,1800',
  'induction-stove,NY,1700',
];

let lake: DemoLake;
let child: ChildProcess | undefined;
beforeEach(async () => {
  lake = await createDemoLake();
});
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  await lake.remove();
});

/** Starts the demo pipeline in a child process that stops at `step`; resolves once it is paused there. */
function startPausedRun(step: PipelineStep): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', childScript], {
    env: {
      ...process.env,
      LAKE_DIR: lake.lakeDir,
      DEMO_SOURCE_DIR: lake.sourceDir,
      PIPELINE_PAUSE_AT: step,
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child = proc;
  return new Promise((resolve, reject) => {
    let stderr = '';
    proc.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`${PAUSED_MARKER} ${step}`)) resolve(proc);
    });
    proc.on('exit', (code) =>
      reject(new Error(`child exited (${code}) before pausing at ${step}: ${stderr}`)),
    );
  });
}

async function killHard(proc: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

/** Every file of a snapshot with its SHA-256, to show that nothing served was touched. */
async function fingerprintFiles(id: string): Promise<Record<string, string>> {
  const dir = path.join(lake.lakeDir, 'snapshots', id);
  const files = (await readdir(dir)).sort();
  return Object.fromEntries(
    await Promise.all(files.map(async (f) => [f, await sha256OfFile(path.join(dir, f))])),
  );
}

describe('a pipeline run killed with SIGKILL', () => {
  const stepsBeforePublish: PipelineStep[] = [
    'locked',
    'ingested',
    'batch-staged',
    'staged',
    'built',
    'snapshot-written',
    'snapshot-promoted',
  ];

  it.each(stepsBeforePublish)(
    'at "%s" leaves CURRENT and the served files untouched, and the next run publishes',
    async (step) => {
      const served = await lake.run();
      const servedFiles = await fingerprintFiles(served.snapshotId);
      await lake.writePrices(NEW_PRICES);

      await killHard(await startPausedRun(step));

      expect(await readCurrent(localLake(lake.lakeDir))).toBe(served.snapshotId);
      expect(await fingerprintFiles(served.snapshotId)).toEqual(servedFiles);
      expect(
        (await openSnapshot(localLake(lake.lakeDir), served.snapshotId)).manifest.tables.demo_prices!.rows,
      ).toBe(6);

      const next = await lake.run();
      if (next.status !== 'published') throw new Error(`expected a publish, got ${next.status}`);
      expect(next.previous).toBe(served.snapshotId);
      expect(await readCurrent(localLake(lake.lakeDir))).toBe(next.snapshotId);
      expect(next.manifest.sources.demo!.records).toEqual({ 'demo-price': { accepted: 4, quarantined: 0 } });
      const rows = await (await openSnapshot(localLake(lake.lakeDir), next.snapshotId)).rows('demo_prices');
      expect(rows.map((r) => r.price_usd)).toEqual([14000, 13000, 1800, 1700]);
      const leftovers = (await readdir(path.join(lake.lakeDir, 'snapshots'))).filter((n) => n.includes('.'));
      expect(leftovers).toEqual([]);
    },
    120_000,
  );

  it('right after the CURRENT swap leaves the new snapshot published and complete', async () => {
    const served = await lake.run();
    await lake.writePrices(NEW_PRICES);

    await killHard(await startPausedRun('published'));

    const current = await readCurrent(localLake(lake.lakeDir));
    expect(current).not.toBe(served.snapshotId);
    const snapshot = await openSnapshot(localLake(lake.lakeDir), current!);
    expect(snapshot.manifest.parent).toBe(served.snapshotId);
    expect(await lake.run()).toEqual({ status: 'unchanged', snapshotId: current });
  }, 120_000);
});

describe('the lake lock across processes', () => {
  it('refuses a second run while another process holds the lake, and takes the lock over once it died', async () => {
    const served = await lake.run();
    await lake.writePrices(NEW_PRICES);
    const holder = await startPausedRun('locked');

    const refused = await lake.run().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LakeBusyError);
    expect((refused as Error).message).toContain(`pipeline run (pid ${holder.pid} on `);

    await killHard(holder);
    const next = await lake.run();
    expect(next.status).toBe('published');
    expect(next.status === 'published' && next.previous).toBe(served.snapshotId);
  }, 120_000);
});
