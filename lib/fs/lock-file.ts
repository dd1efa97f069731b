import fs from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { lock } from 'proper-lockfile';
import { processExists } from '../process-exists.ts';

/**
 * The project's one lock protocol, across processes and within one: the lake's run lock, the embedded
 * event log's directory lock and the key file's lock all take a lock this way.
 *
 * A lock is proper-lockfile's: a directory created atomically, whose mtime its holder refreshes every
 * `heartbeatMs`; one not refreshed for `staleAfterMs` is stale and taken over (a holder gone on another
 * host, a pid reused). Inside it, `holder.json` names the holder (pid, host, purpose, start), for the error
 * that refuses the lock and so that a lock whose process is gone from this host is taken over at once
 * rather than after `staleAfterMs` (a run killed with SIGKILL, then run again).
 */

export interface LockHolder {
  pid: number;
  host: string;
  purpose: string;
  startedAt: string;
}

export class LockBusyError extends Error {
  constructor(
    readonly file: string,
    readonly holder: LockHolder,
  ) {
    super(
      `${file} is held by ${holder.purpose} (pid ${holder.pid} on ${holder.host}) since ${holder.startedAt}`,
    );
    this.name = 'LockBusyError';
  }
}

export interface HeldLock {
  readonly holder: LockHolder;
  release(): Promise<void>;
}

export interface LockOptions {
  /** Says who holds the lock, e.g. "pipeline run" or "lake gc". */
  purpose: string;
  /** How long to wait for a busy lock before giving up with LockBusyError (0: refuse at once). */
  waitMs?: number;
  pollMs?: number;
  /** The holder refreshes the lock's mtime this often. */
  heartbeatMs?: number;
  /** A lock not refreshed for this long is stale even if its pid exists. */
  staleAfterMs?: number;
}

const DEFAULTS = { waitMs: 0, pollMs: 200, heartbeatMs: 5_000, staleAfterMs: 120_000 };

const HOLDER_FILE = 'holder.json';

/** Node's fs, but removing a lock removes the holder file in it (proper-lockfile expects an empty directory). */
const lockFs = {
  ...fs,
  rmdir: (dir: string, done: (error: Error | null) => void) => fs.rm(dir, { recursive: true }, done),
  rmdirSync: (dir: string) => fs.rmSync(dir, { recursive: true }),
};

/** Locks this process holds: a lock naming this pid that is not among them was left before a restart. */
const heldHere = new Set<string>();

export async function acquireLock(file: string, options: LockOptions): Promise<HeldLock> {
  const settings = { ...DEFAULTS, ...options };
  const target = path.resolve(file);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const lockOptions = {
    realpath: false,
    lockfilePath: target,
    fs: lockFs,
    stale: settings.staleAfterMs,
    update: settings.heartbeatMs,
    onCompromised: (error: Error) =>
      process.emitWarning(`the lock ${target} was taken over by another holder: ${error.message}`),
  };
  const retries = Math.ceil(settings.waitMs / settings.pollMs);
  let unlock: () => Promise<void>;
  try {
    unlock = await lock(target, lockOptions);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    if (leftBehind(await readHolder(target), target)) await rm(target, { recursive: true, force: true });
    try {
      unlock = await lock(target, {
        ...lockOptions,
        retries: { retries, factor: 1, minTimeout: settings.pollMs, maxTimeout: settings.pollMs },
      });
    } catch (busy) {
      if ((busy as NodeJS.ErrnoException).code !== 'ELOCKED') throw busy;
      throw new LockBusyError(target, (await readHolder(target)) ?? unknownHolder);
    }
  }
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    purpose: options.purpose,
    startedAt: new Date().toISOString(),
  };
  heldHere.add(target);
  // Writing the holder changes the directory's mtime, which proper-lockfile checks its heartbeat against
  // (another mtime means another holder): it is set back to the one the lock was taken with.
  const { mtime } = await fs.promises.stat(target);
  await writeFile(path.join(target, HOLDER_FILE), `${JSON.stringify(holder)}\n`);
  await fs.promises.utimes(target, mtime, mtime);
  let released = false;
  return {
    holder,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(target);
      // A lock taken over meanwhile (its heartbeat had stopped) is another's now: only this holder's is removed.
      const current = await readHolder(target);
      if (JSON.stringify(current) !== JSON.stringify(holder)) return;
      await unlock().catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ERELEASED' && error.code !== 'ENOTACQUIRED') throw error;
      });
    },
  };
}

/** Runs `action` while holding the lock, and releases it however the action ends. */
export async function withLock<T>(file: string, options: LockOptions, action: () => Promise<T>): Promise<T> {
  const lock = await acquireLock(file, options);
  try {
    return await action();
  } finally {
    await lock.release();
  }
}

/** Whether a lock's holder is gone from this host, or is this process but does not hold it (pid reused). */
function leftBehind(holder: LockHolder | null, file: string): boolean {
  if (holder === null || holder.host !== hostname()) return false;
  return holder.pid === process.pid ? !heldHere.has(file) : !processExists(holder.pid);
}

/**
 * The holder a lock names; null while it is being written. A plain file at the lock's path is a lock of the
 * earlier protocol (its holder as JSON, or a bare pid), still honoured.
 */
async function readHolder(file: string): Promise<LockHolder | null> {
  const content = await readFile(path.join(file, HOLDER_FILE), 'utf8').catch(
    (error: NodeJS.ErrnoException) =>
      error.code === 'ENOTDIR' ? readFile(file, 'utf8').catch(() => null) : null,
  );
  return content === null ? null : parseHolder(content);
}

/** A holder as JSON, or a bare pid (the event log's lock files before this protocol): a process here. */
function parseHolder(content: string): LockHolder | null {
  if (/^\d+\s*$/.test(content)) {
    return { pid: Number(content), host: hostname(), purpose: 'unknown', startedAt: 'unknown' };
  }
  try {
    const value = JSON.parse(content) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string') return null;
    return {
      pid: value.pid,
      host: value.host,
      purpose: String(value.purpose ?? 'unknown'),
      startedAt: String(value.startedAt ?? 'unknown'),
    };
  } catch {
    return null;
  }
}

const unknownHolder: LockHolder = { pid: 0, host: 'unknown', purpose: 'unknown', startedAt: 'unknown' };
