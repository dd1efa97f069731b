import { localLake } from '../../data-lake/lake.ts';
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { listRuns, RunHistory } from '../../data-lake/run-history.ts';

describe('RunHistory', () => {
  it('writes a record when a run starts, adds what it learns and ends it with its outcome', async ({
    lakeDir,
  }) => {
    const run = await RunHistory.start(localLake(lakeDir), {
      trigger: 'scheduled',
      previous: 'snap-1',
      now: new Date('2026-11-27T06:00:00.000Z'),
    });
    expect((await listRuns(localLake(lakeDir)))[0]).toMatchObject({
      outcome: 'running',
      endedAt: null,
      trigger: 'scheduled',
    });
    await run.update({ sources: [{ source: 'incentives', version: 'v2', changed: true }] });
    await run.finish('failed', {
      detail: 'Source "incentives": HTTP 503',
      now: new Date('2026-11-27T06:00:04.000Z'),
    });

    const file = JSON.parse(await readFile(path.join(lakeDir, 'runs', `${run.id}.json`), 'utf8'));
    expect(file).toMatchObject({
      id: run.id,
      trigger: 'scheduled',
      startedAt: '2026-11-27T06:00:00.000Z',
      endedAt: '2026-11-27T06:00:04.000Z',
      outcome: 'failed',
      detail: 'Source "incentives": HTTP 503',
      previous: 'snap-1',
      snapshot: null,
      sources: [{ source: 'incentives', version: 'v2', changed: true }],
    });
    expect(run.id).toMatch(/^20261127T060000000Z-[0-9a-f]{4}$/);
  });

  it('lists runs newest first, a run whose process died as interrupted, and skips a file it cannot read', async ({
    lakeDir,
  }) => {
    const older = await RunHistory.start(localLake(lakeDir), {
      trigger: 'manual',
      previous: null,
      now: new Date('2026-11-26T00:00:00Z'),
    });
    await older.finish('published', { snapshot: 'snap-1', now: new Date('2026-11-26T00:00:09Z') });
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const killed = await RunHistory.start(localLake(lakeDir), {
      trigger: 'start',
      previous: 'snap-1',
      now: new Date('2026-11-27T00:00:00Z'),
    });
    const killedFile = path.join(lakeDir, 'runs', `${killed.id}.json`);
    await writeFile(
      killedFile,
      (await readFile(killedFile, 'utf8')).replace(`"pid": ${process.pid}`, `"pid": ${dead}`),
    );
    await writeFile(path.join(lakeDir, 'runs', 'garbage.json'), '{');

    expect((await listRuns(localLake(lakeDir))).map((run) => [run.id, run.outcome])).toEqual([
      [killed.id, 'interrupted'],
      [older.id, 'published'],
    ]);
  });
});
