import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLakeLock, LakeBusyError } from '../../data-lake/lake-lock.ts';

let lakeDir: string;
beforeEach(async () => {
  lakeDir = await mkdtemp(path.join(tmpdir(), 'lake-lock-'));
});
afterEach(async () => {
  await rm(lakeDir, { recursive: true, force: true });
});

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
});
