import {
  acquireLock,
  LockBusyError,
  type HeldLock,
  type LockHolder,
  type LockOptions,
} from '../lib/fs/lock-file.ts';
import { lakePaths } from './lake-paths.ts';

export type { LockHolder };

export class LakeBusyError extends Error {
  constructor(readonly holder: LockHolder) {
    super(
      `the lake is busy: ${holder.purpose} (pid ${holder.pid} on ${holder.host}) has held it since ` +
        `${holder.startedAt}; try again when it finishes`,
    );
    this.name = 'LakeBusyError';
  }
}

export type LakeLock = HeldLock;

/**
 * Takes the lake's exclusive lock, held by one pipeline run or lake command at a time, across processes
 * (the project's lock protocol, lib/fs/lock-file.ts).
 */
export async function acquireLakeLock(lakeDir: string, options: LockOptions): Promise<LakeLock> {
  try {
    return await acquireLock(lakePaths(lakeDir).runLock, options);
  } catch (error) {
    if (error instanceof LockBusyError) throw new LakeBusyError(error.holder);
    throw error;
  }
}
