import { hostname } from 'node:os';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { acquireLakeLock, LakeBusyError } from '../../data-lake/lake-lock.ts';

describe('acquireLakeLock', () => {
  it('refuses a second holder, naming the first', async ({ lakeDir }) => {
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
