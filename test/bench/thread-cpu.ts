import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * CPU time of this process's threads, from /proc/self/task/<tid>/stat (Linux only): where a multi-threaded
 * bench's cores go. Node 20 names none of its threads, so roles are found rather than read: the main thread
 * is the process id, worker threads report their own id, and the libuv pool is found by occupying it (see
 * libuvPoolThreadIds). The rest are V8's platform threads (concurrent and parallel GC, background
 * compilation) and a few idle ones (signal handling, tsx's module loader).
 */

/** CPU milliseconds (user + system) of each live thread, by task id; null where /proc is not available. */
export function readThreadCpu(): Map<number, number> | null {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  const msPerTick = 1000 / clockTicksPerSecond();
  const cpu = new Map<number, number>();
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended while we listed
    }
    // Fields after "(comm)": state is field 3, utime 14 and stime 15 (proc(5)); comm may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    cpu.set(Number(task), (Number(fields[11]) + Number(fields[12])) * msPerTick);
  }
  return cpu;
}

let ticks: number | undefined;
function clockTicksPerSecond(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100; // USER_HZ on every mainstream Linux build
    }
  }
  return ticks;
}

/**
 * Task ids of libuv's thread pool (file system work, and so the embedded log's writes and fsyncs). Each
 * pool thread is made to block in open(2) of a FIFO with no writer, which shows in its wchan as
 * `wait_for_partner`; one writer then releases them all. Empty when the pool cannot be told apart.
 */
export async function libuvPoolThreadIds(): Promise<Set<number>> {
  const size = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  const dir = await mkdtemp(path.join(tmpdir(), 'libuv-pool-'));
  const fifo = path.join(dir, 'fifo');
  const found = new Set<number>();
  try {
    execFileSync('mkfifo', [fifo]);
    const readers = Array.from({ length: size }, () => open(fifo, 'r'));
    for (let tries = 0; tries < 100 && found.size < size; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      for (const task of readdirSync('/proc/self/task')) {
        try {
          if (readFileSync(`/proc/self/task/${task}/wchan`, 'utf8') === 'wait_for_partner')
            found.add(Number(task));
        } catch {
          // a thread that ended, or a kernel that hides wchan
        }
      }
    }
    // Synchronous on purpose: an asynchronous open would need a pool thread, and they are all waiting here.
    const writer = openSync(fifo, 'w');
    for (const reader of await Promise.all(readers)) await reader.close();
    closeSync(writer);
  } catch {
    return new Set();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return found;
}

export interface CpuByRole {
  main: number;
  /** One figure per worker thread, in the order their ids were given. */
  workers: number[];
  libuvPool: number;
  /** V8 platform threads (GC helpers, background compilation) and anything else. */
  other: number;
  total: number;
}

/** CPU milliseconds spent between two readings, by thread role (threads that ended in between are lost). */
export function cpuByRole(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
  roles: { workers: readonly (number | null)[]; libuvPool: ReadonlySet<number> },
): CpuByRole {
  const spent = (task: number) => (after.get(task) ?? 0) - (before.get(task) ?? 0);
  const result: CpuByRole = {
    main: spent(process.pid),
    workers: roles.workers.map((task) => (task === null ? 0 : spent(task))),
    libuvPool: 0,
    other: 0,
    total: 0,
  };
  for (const task of after.keys()) {
    result.total += spent(task);
    if (task === process.pid || roles.workers.includes(task)) continue;
    if (roles.libuvPool.has(task)) result.libuvPool += spent(task);
    else result.other += spent(task);
  }
  return result;
}
