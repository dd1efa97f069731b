import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { acquireLock, LockBusyError, type HeldLock } from '../lib/fs/lock-file.ts';

export class DirectoryLockedError extends Error {
  constructor(
    readonly directory: string,
    readonly pid: number,
  ) {
    super(
      `event log directory ${directory} is in use by process ${pid}; ` +
        `if no such process uses it, delete ${path.join(directory, LOCK_FILE)}`,
    );
    this.name = 'DirectoryLockedError';
  }
}

const LOCK_FILE = 'LOCK';

/** An exclusive claim on a directory by one writer process. */
export type DirectoryLock = Pick<HeldLock, 'release'>;

/**
 * Takes the directory's lock (the project's lock protocol, lib/fs/lock-file.ts): a second open, in this
 * process or another live one, throws DirectoryLockedError; a lock left by a process that is gone is
 * taken over.
 */
export async function lockDirectory(directory: string): Promise<DirectoryLock> {
  const canonical = await realpath(directory);
  try {
    return await acquireLock(path.join(canonical, LOCK_FILE), { purpose: 'embedded event log' });
  } catch (error) {
    if (error instanceof LockBusyError) throw new DirectoryLockedError(canonical, error.holder.pid);
    throw error;
  }
}
