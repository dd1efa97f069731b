import { spawnSync } from 'node:child_process';
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { acquireLock, LockBusyError, withLock } from '../../../lib/fs/lock-file.ts';

let file: string;
it.beforeEach(({ tempDir }) => {
  file = path.join(tempDir, 'some.lock');
});

/** The pid of a process that has already exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid!;
const holderJson = (pid: number, host = hostname()) =>
  JSON.stringify({ pid, host, purpose: 'pipeline run', startedAt: '2026-11-21T15:00:00.000Z' });
/** A lock as another process leaves it: the lock directory and, unless null, the holder it names. */
const leaveLock = async (holder: string | null) => {
  await mkdir(file);
  if (holder !== null) await writeFile(path.join(file, 'holder.json'), holder);
};
const holderOf = async () => JSON.parse(await readFile(path.join(file, 'holder.json'), 'utf8')) as unknown;

describe('acquireLock', () => {
  it('refuses a second holder in the same process, naming the first', async () => {
    const lock = await acquireLock(file, { purpose: 'pipeline run' });
    const refused = await acquireLock(file, { purpose: 'lake gc' }).catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(LockBusyError);
    expect((refused as LockBusyError).holder).toEqual(lock.holder);
    expect((refused as Error).message).toBe(
      `${file} is held by pipeline run (pid ${process.pid} on ${hostname()}) since ${lock.holder.startedAt}`,
    );
    await lock.release();
  });

  it('lets only one of two simultaneous takes in one process have the lock', async () => {
    const results = await Promise.allSettled([
      acquireLock(file, { purpose: 'a' }),
      acquireLock(file, { purpose: 'b' }),
    ]);
    const held = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(held).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: expect.any(LockBusyError) });
    await held[0]!.release();
  });

  it('refuses a lock another live process holds', async () => {
    await leaveLock(holderJson(process.ppid));
    await expect(acquireLock(file, { purpose: 'lake gc' })).rejects.toMatchObject({
      holder: { pid: process.ppid, purpose: 'pipeline run' },
    });
  });

  it('waits for the holder to release when asked to wait', async () => {
    const first = await acquireLock(file, { purpose: 'pipeline run' });
    const second = acquireLock(file, { purpose: 'pipeline run', waitMs: 10_000, pollMs: 20 });
    await first.release();
    const lock = await second;
    expect(await holderOf()).toEqual(lock.holder);
    await lock.release();
  });

  it('takes over a lock whose process died on this host', async () => {
    await leaveLock(holderJson(deadPid()));
    const lock = await acquireLock(file, { purpose: 'pipeline run' });
    expect(lock.holder.pid).toBe(process.pid);
    expect(await holderOf()).toEqual(lock.holder);
    await lock.release();
  });

  it('takes over a lock that names this process when this process does not hold it (pid reused)', async () => {
    await leaveLock(holderJson(process.pid));
    const lock = await acquireLock(file, { purpose: 'pipeline run' });
    expect(lock.holder.purpose).toBe('pipeline run');
    await lock.release();
  });

  it('reads a lock file of the earlier protocol (a bare pid) as a process of this host', async () => {
    await writeFile(file, `${process.ppid}\n`);
    await expect(acquireLock(file, { purpose: 'x' })).rejects.toMatchObject({
      holder: { pid: process.ppid, host: hostname() },
    });
    await writeFile(file, `${deadPid()}\n`);
    await (await acquireLock(file, { purpose: 'x' })).release();
  });

  it('takes over a lock whose heartbeat stopped, even if its pid exists (reuse, other host)', async () => {
    await leaveLock(holderJson(process.ppid, 'other-host'));
    await expect(acquireLock(file, { purpose: 'lake gc' })).rejects.toBeInstanceOf(LockBusyError);

    const longAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(file, longAgo, longAgo);
    const lock = await acquireLock(file, { purpose: 'lake gc', staleAfterMs: 60_000 });
    expect(lock.holder.purpose).toBe('lake gc');
    await lock.release();
  });

  it('takes over a lock whose holder was never written once its heartbeat is stale', async () => {
    await leaveLock(null);
    await expect(acquireLock(file, { purpose: 'x', staleAfterMs: 2_000 })).rejects.toBeInstanceOf(
      LockBusyError,
    );
    const old = new Date(Date.now() - 5_000);
    await utimes(file, old, old);
    await (await acquireLock(file, { purpose: 'x', staleAfterMs: 2_000 })).release();
  });

  it('keeps its heartbeat: the lock is not stale while held', async () => {
    const lock = await acquireLock(file, {
      purpose: 'pipeline run',
      heartbeatMs: 1_000,
      staleAfterMs: 2_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    await expect(acquireLock(file, { purpose: 'lake gc', staleAfterMs: 2_000 })).rejects.toBeInstanceOf(
      LockBusyError,
    );
    await lock.release();
  });

  it('releases only its own lock', async () => {
    const lock = await acquireLock(file, { purpose: 'pipeline run' });
    const other = holderJson(1, 'elsewhere');
    await writeFile(path.join(file, 'holder.json'), other);
    await lock.release();
    expect(await readFile(path.join(file, 'holder.json'), 'utf8')).toBe(other);
  });
});

describe('withLock', () => {
  it('holds the lock for the action and releases it when the action fails', async () => {
    await expect(
      withLock(file, { purpose: 'key command' }, async () => {
        expect(await holderOf()).toMatchObject({ purpose: 'key command' });
        throw new Error('action failed');
      }),
    ).rejects.toThrow('action failed');
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
