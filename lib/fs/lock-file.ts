import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processExists } from '../process-exists.ts';

/**
 * The project's one lock protocol, across processes and within one: the lake's run lock, the embedded
 * event log's directory lock and the key file's lock all take a lock file this way.
 *
 * A lock is a file created with O_EXCL holding its holder (pid, host, purpose, start). Its holder touches
 * it every `heartbeatMs`. A lock is stale, and taken over, when its process is gone from this host, when
 * its heartbeat stopped for `staleAfterMs` (pid reuse, another host), when it names this process but this
 * process does not hold it (left from before a restart that reused the pid), or when it is half-written
 * (its writer died between create and write) and older than a second.
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
  /** The holder refreshes the lock file's mtime this often. */
  heartbeatMs?: number;
  /** A lock not refreshed for this long is stale even if its pid exists. */
  staleAfterMs?: number;
}

const DEFAULTS = { waitMs: 0, pollMs: 200, heartbeatMs: 5_000, staleAfterMs: 120_000 };

/** Lock files this process holds, so a second take in the same process is refused like another's. */
const heldHere = new Set<string>();

export async function acquireLock(file: string, options: LockOptions): Promise<HeldLock> {
  const settings = { ...DEFAULTS, ...options };
  const target = path.resolve(file);
  await mkdir(path.dirname(target), { recursive: true });
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    purpose: options.purpose,
    startedAt: new Date().toISOString(),
  };
  const content = `${JSON.stringify(holder)}\n`;
  const deadline = Date.now() + settings.waitMs;
  for (;;) {
    if (!heldHere.has(target)) {
      // Claimed before the first await, so two takes in this process cannot both create the file.
      heldHere.add(target);
      try {
        await writeFile(target, content, { flag: 'wx' });
        return heldLock(target, content, holder, settings.heartbeatMs);
      } catch (error) {
        heldHere.delete(target);
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    const current = await inspectLock(target, settings.staleAfterMs);
    if (current === 'gone') continue;
    if (current.stale) {
      await breakStaleLock(target, current.content);
      continue;
    }
    if (Date.now() >= deadline) throw new LockBusyError(target, current.holder);
    await sleep(settings.pollMs);
  }
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

function heldLock(file: string, content: string, holder: LockHolder, heartbeatMs: number): HeldLock {
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
      heldHere.delete(file);
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
  if (holder === null) return { stale: Date.now() - modified > 1_000, holder: unknownHolder, content };
  const here = holder.host === hostname();
  const heartbeatStopped = Date.now() - modified > staleAfterMs;
  const deadHere = here && !processExists(holder.pid);
  const leftByThisPid = here && holder.pid === process.pid && !heldHere.has(file);
  return { stale: heartbeatStopped || deadHere || leftByThisPid, holder, content };
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
