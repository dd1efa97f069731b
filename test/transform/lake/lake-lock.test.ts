import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLakeLock, LakeBusyError } from '../../../transform/lake/lake-lock.ts';

let lakeDir: string;
let lockFile: string;
beforeEach(async () => {
  lakeDir = await mkdtemp(path.join(tmpdir(), 'lake-lock-'));
  lockFile = path.join(lakeDir, 'pipeline.lock');
});
afterEach(async () => {
  await rm(lakeDir, { recursive: true, force: true });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('acquireLakeLock', () => {
  it('refuses a second holder, naming the first', async () => {
    const lock = await acquireLakeLock(lakeDir, { purpose: 'pipeline run' });
    const refused = await acquireLakeLock(lakeDir, { purpose: 'lake gc' }).catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(LakeBusyError);
    expect((refused as LakeBusyError).holder).toEqual(lock.holder);
    expect((refused as Error).message).toBe(
      `the lake is busy: pipeline run (pid ${process.pid} on ${hostname()}) has held it since ${lock.holder.startedAt}; try again when it finishes`,
    );
    await lock.release();
  });

  it('waits for the holder to release when asked to wait', async () => {
    const first = await acquireLakeLock(lakeDir, { purpose: 'pipeline run' });
    const second = acquireLakeLock(lakeDir, { purpose: 'pipeline run', waitMs: 10_000, pollMs: 20 });
    await first.release();
    const lock = await second;
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toEqual(lock.holder);
    await lock.release();
  });

  it('takes over a lock whose process died on this host', async () => {
    const dead = {
      pid: deadPid(),
      host: hostname(),
      purpose: 'pipeline run',
      startedAt: '2026-11-21T15:00:00.000Z',
    };
    await writeFile(lockFile, JSON.stringify(dead));

    const lock = await acquireLakeLock(lakeDir, { purpose: 'pipeline run' });
    expect(lock.holder.pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over a lock whose heartbeat stopped, even if its pid exists (reuse, other host)', async () => {
    const silent = {
      pid: process.ppid,
      host: 'other-host',
      purpose: 'pipeline run',
      startedAt: '2026-11-21T15:00:00.000Z',
    };
    await writeFile(lockFile, JSON.stringify(silent));
    const recent = await acquireLakeLock(lakeDir, { purpose: 'lake gc' }).catch((e: unknown) => e);
    expect(recent).toBeInstanceOf(LakeBusyError);

    const longAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(lockFile, longAgo, longAgo);
    const lock = await acquireLakeLock(lakeDir, { purpose: 'lake gc', staleAfterMs: 60_000 });
    expect(lock.holder.purpose).toBe('lake gc');
    await lock.release();
  });

  it('releases only its own lock', async () => {
    const lock = await acquireLakeLock(lakeDir, { purpose: 'pipeline run' });
    const other = JSON.stringify({ pid: 1, host: 'elsewhere', purpose: 'x', startedAt: 'y' });
    await writeFile(lockFile, other);
    await lock.release();
    expect(await readFile(lockFile, 'utf8')).toBe(other);
  });
});
