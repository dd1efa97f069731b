import { localLake } from '../../../data-lake/lake.ts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { readCurrent } from '../../../data-lake/current-pointer.ts';
import { REPOSITORY_ROOT } from '../../../lib/repository-root.ts';
import { sampleValue } from '../../support/prometheus-text.ts';

const script = fileURLToPath(new URL('../../../pipeline/cli/refresh.ts', import.meta.url));
let lakeDir: string;
it.beforeEach(async ({ tempDir }) => {
  lakeDir = tempDir;
});
describe('npm run refresh', () => {
  it('refuses a missing or invalid cron expression with a usage message', () => {
    const missing = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('usage: npm run refresh -- --cron "<expression>" [--no-initial-run]');

    const invalid = spawnSync(process.execPath, ['--import', 'tsx', script, '--cron', '61 * * * *'], {
      encoding: 'utf8',
    });
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain('--cron "61 * * * *" is not a valid cron expression');
  }, 60_000);

  it('runs the pipeline once at start, before the first tick, and stops cleanly on SIGTERM', async () => {
    // A yearly schedule: only the initial run can have published the snapshot.
    const child = startRefresh(['--cron', '0 0 1 1 *']);
    const ended = await firstRunEnded(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');

    expect(ended).toMatchObject({ trigger: 'start', exitCode: 0 });
    expect(await exited).toBe(0);
    expect(await readCurrent(localLake(lakeDir))).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}$/);
  }, 120_000);

  it('with --no-initial-run waits for the schedule (the project sample sources)', async () => {
    const child = startRefresh(['--cron', '* * * * * *', '--no-initial-run']);
    const ended = await firstRunEnded(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');

    expect(ended).toMatchObject({ trigger: 'schedule', exitCode: 0 });
    expect(await exited).toBe(0);
    expect(await readCurrent(localLake(lakeDir))).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}$/);
  }, 120_000);

  it('holds a run whose source lost a state, says so at warn and in its metrics, and never publishes it', async () => {
    const first = startRefresh(['--cron', '0 0 1 1 *']);
    expect(await firstRunEnded(first)).toMatchObject({ exitCode: 0 });
    const firstExit = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGTERM');
    await firstExit;
    const published = await readCurrent(localLake(lakeDir));

    // The sample source with Massachusetts' incentives emptied, as an upstream export gone wrong would be.
    const source = path.join(lakeDir, 'broken-source');
    await cp(path.join(REPOSITORY_ROOT, 'ingest/sample-data/incentives'), source, { recursive: true });
    await writeFile(path.join(source, 'data/MA/incentives.json'), '[]\n');
    await writeFile(path.join(source, 'data/MA/incentive_relationships.json'), '{}\n');
    const textfile = path.join(lakeDir, 'pipeline.prom');
    const held = startRefresh(['--cron', '0 0 1 1 *'], {
      INCENTIVES_SOURCE: source,
      METRICS_TEXTFILE: textfile,
    });
    const ended = await firstRunEnded(held);
    const heldExit = new Promise((resolve) => held.once('exit', resolve));
    held.kill('SIGTERM');
    await heldExit;

    expect(ended).toMatchObject({
      level: 40,
      trigger: 'start',
      exitCode: 3,
      msg: 'pipeline run ended: held for review: nothing published (npm run lake -- list, diff, publish)',
    });
    expect(await readCurrent(localLake(lakeDir))).toBe(published);
    const metrics = await readFile(textfile, 'utf8');
    expect(sampleValue(metrics, 'electrify_pipeline_last_run_status', { status: 'held' })).toBe(1);
    expect(sampleValue(metrics, 'electrify_lake_held_snapshots')).toBe(1);
    // Massachusetts is gone from the incentives and from the incentive relationships.
    expect(sampleValue(metrics, 'electrify_pipeline_audit_findings', { severity: 'hold' })).toBe(2);
  }, 180_000);

  it('counts a run whose source repeats keys as failed, at error and in its metrics', async () => {
    const source = path.join(lakeDir, 'exported-twice');
    await cp(path.join(REPOSITORY_ROOT, 'ingest/sample-data/incentives'), source, { recursive: true });
    const file = path.join(source, 'data/MA/incentives.json');
    const incentives = JSON.parse(await readFile(file, 'utf8')) as unknown[];
    await writeFile(file, JSON.stringify([...incentives, ...incentives.slice(0, 3)]));
    const textfile = path.join(lakeDir, 'pipeline.prom');
    const child = startRefresh(['--cron', '0 0 1 1 *'], {
      INCENTIVES_SOURCE: source,
      METRICS_TEXTFILE: textfile,
    });
    const ended = await firstRunEnded(child);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;

    expect(ended).toMatchObject({
      level: 50,
      exitCode: 4,
      msg: 'pipeline run ended: failed: a source version was rejected, nothing published (npm run lake -- runs)',
    });
    const metrics = await readFile(textfile, 'utf8');
    expect(sampleValue(metrics, 'electrify_pipeline_last_run_status', { status: 'failed' })).toBe(1);
    expect(sampleValue(metrics, 'electrify_pipeline_rejected_source_versions')).toBe(1);
  }, 180_000);
});

function startRefresh(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    // No REM precompute: these specs are about scheduling runs.
    env: {
      ...process.env,
      LAKE_DIR: lakeDir,
      LOG_LEVEL: 'info',
      REM_STATES: 'none',
      HEALTH_STATES: 'none',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The first "pipeline run ended" log line of a refresh process. */
function firstRunEnded(child: ChildProcess): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('"msg":"pipeline run ended'));
      if (line) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    child.on('exit', (code) => reject(new Error(`refresh exited early (${code}): ${out}`)));
  });
}
