import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { lakePaths } from './lake-paths.ts';

/** What the lock file says about its holder. */
export interface LockHolder {
  pid: number;
  host: string;
  purpose: string;
  startedAt: string;
}

export class LakeBusyError extends Error {
  constructor(readonly holder: LockHolder) {
    super(
      `the lake is busy: ${holder.purpose} (pid ${holder.pid} on ${holder.host}) has held it since ` +
        `${holder.startedAt}; try again when it finishes`,
    );
    this.name = 'LakeBusyError';
  }
}

export interface LakeLock {
  readonly holder: LockHolder;
  release(): Promise<void>;
}

export interface LockOptions {
  /** Says who holds the lock, e.g. "pipeline run" or "lake gc". */
  purpose: string;
  /** How long to wait for a busy lock before giving up with LakeBusyError (0: refuse at once). */
  waitMs?: number;
  pollMs?: number;
  /** The holder refreshes the lock file's mtime this often. */
  heartbeatMs?: number;
  /** A lock not refreshed for this long is stale even if its pid exists (pid reuse, another host). */
  staleAfterMs?: number;
}

const DEFAULTS = { waitMs: 0, pollMs: 200, heartbeatMs: 5_000, staleAfterMs: 120_000 };

/**
 * Takes the lake's exclusive lock, held by one pipeline run or maintenance command at a time, across
 * processes. The lock is a file created with O_EXCL; a lock whose holder died (its pid is gone on this
 * host, or its heartbeat stopped) is stale and taken over.
 */
export async function acquireLakeLock(lakeDir: string, options: LockOptions): Promise<LakeLock> {
  const settings = { ...DEFAULTS, ...options };
  const file = lakePaths(lakeDir).runLock;
  await mkdir(path.dirname(file), { recursive: true });
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    purpose: options.purpose,
    startedAt: new Date().toISOString(),
  };
  const content = `${JSON.stringify(holder)}\n`;
  const deadline = Date.now() + settings.waitMs;
  for (;;) {
    try {
      await writeFile(file, content, { flag: 'wx' });
      return heldLock(file, content, holder, settings.heartbeatMs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const current = await inspectLock(file, settings.staleAfterMs);
    if (current === 'gone') continue;
    if (current.stale) {
      await breakStaleLock(file, current.content);
      continue;
    }
    if (Date.now() >= deadline) throw new LakeBusyError(current.holder);
    await sleep(settings.pollMs);
  }
}

function heldLock(file: string, content: string, holder: LockHolder, heartbeatMs: number): LakeLock {
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, heartbeatMs);
  heartbeat.unref();
  let released = false;
  return {
    holder,
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      // Only remove the file if it is still ours (a stale-lock breaker may have replaced it).
      const now = await readFile(file, 'utf8').catch(() => null);
      if (now === content) await rm(file, { force: true });
    },
  };
}

type Inspection = { stale: boolean; holder: LockHolder; content: string } | 'gone';

async function inspectLock(file: string, staleAfterMs: number): Promise<Inspection> {
  let content: string;
  let modified: number;
  try {
    [content, modified] = await Promise.all([readFile(file, 'utf8'), stat(file).then((s) => s.mtimeMs)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  const holder = parseHolder(content);
  // A half-written lock file (its writer died between create and write) is stale once it is old.
  if (holder === null) return { stale: Date.now() - modified > 1_000, holder: unknownHolder, content };
  const heartbeatStopped = Date.now() - modified > staleAfterMs;
  const deadHere = holder.host === hostname() && !processExists(holder.pid);
  return { stale: heartbeatStopped || deadHere, holder, content };
}

/**
 * Removes a stale lock without racing another process that is doing the same: the file is first renamed
 * to a name only we use, and put back if, by then, it was no longer the stale lock we inspected.
 */
async function breakStaleLock(file: string, staleContent: string): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8');
  if (moved !== staleContent) await link(aside, file).catch(() => undefined);
  await rm(aside, { force: true });
}

function parseHolder(content: string): LockHolder | null {
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

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
