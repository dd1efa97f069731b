import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';

/** Directories this process holds, so a second open in the same process is refused too. */
const heldByThisProcess = new Set<string>();

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

/** An exclusive claim on a directory by one writer process: a lock file holding the owner's pid. */
export interface DirectoryLock {
  release(): Promise<void>;
}

/**
 * Takes the directory's lock. A lock whose process no longer exists (killed, crashed) is stale and is
 * taken over; a live owner makes this throw DirectoryLockedError.
 */
export async function lockDirectory(directory: string): Promise<DirectoryLock> {
  const canonical = await realpath(directory);
  const lockFile = path.join(canonical, LOCK_FILE);
  if (heldByThisProcess.has(canonical)) throw new DirectoryLockedError(canonical, process.pid);
  // Claimed before the first await, so two opens in this process cannot both take the lock.
  heldByThisProcess.add(canonical);
  try {
    await createLockFile(canonical, lockFile);
  } catch (error) {
    heldByThisProcess.delete(canonical);
    throw error;
  }
  return {
    async release() {
      heldByThisProcess.delete(canonical);
      await rm(lockFile, { force: true });
    },
  };
}

async function createLockFile(canonical: string, lockFile: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(lockFile, `${process.pid}\n`, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
    }
    const owner = await readOwner(lockFile);
    // Our own pid in a lock we do not hold is left over from before a restart with a reused pid.
    if (owner !== undefined && owner !== process.pid && processIsAlive(owner)) {
      throw new DirectoryLockedError(canonical, owner);
    }
    // An empty lock may be one another process has created but not yet written: look again first.
    if (owner === undefined && attempt === 0) {
      await setTimeout(50);
      continue;
    }
    await rm(lockFile, { force: true });
  }
}

async function readOwner(lockFile: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(lockFile, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
