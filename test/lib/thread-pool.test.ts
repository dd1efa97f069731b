import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createThreadPool,
  ThreadPoolFull,
  type ThreadPool,
  type ThreadPoolOptions,
} from '../../lib/thread-pool.ts';
import type { PoolTestJob } from '../support/pool-test-thread.ts';

type Answer = { value: number; threadId: number };

const testThread = new URL('../support/pool-test-thread.ts', import.meta.url);
const pools: ThreadPool<PoolTestJob, Answer>[] = [];
const pool = (threads: number, maxQueued = 8, timeoutMs = 10_000, heapMb?: number) => {
  const made = createThreadPool<PoolTestJob, Answer>({
    module: testThread,
    threads,
    maxQueued,
    timeoutMs,
    ...(heapMb ? { resourceLimits: { maxOldGenerationSizeMb: heapMb } } : {}),
  });
  pools.push(made);
  return made;
};
/** Two threads started ahead, with the options given. */
const startedPool = (options: Pick<ThreadPoolOptions, 'jobsPerThread' | 'niceIncrement'>) => {
  const made = createThreadPool<PoolTestJob, Answer>({
    module: testThread,
    threads: 2,
    startNow: true,
    ...options,
  });
  pools.push(made);
  return made;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const answer = (value: number, busyMs?: number): PoolTestJob => ({ do: 'answer', value, busyMs });

describe('ThreadPool', () => {
  it('answers jobs on its threads, started on the first job, side by side', async () => {
    const threads = pool(2);
    expect(threads.size).toBe(0);
    const answers = await Promise.all([1, 2, 3, 4].map((v) => threads.run(answer(v, 150))));
    expect(answers.map((a) => a.value)).toEqual([2, 4, 6, 8]);
    expect(new Set(answers.map((a) => a.threadId)).size).toBe(2);
    expect(threads.size).toBe(2);
  }, 20_000);

  it('fails only the job whose handler throws, and keeps its thread', async () => {
    const threads = pool(1);
    const before = await threads.run(answer(1));
    await expect(threads.run({ do: 'throw' })).rejects.toThrow('no such home');
    expect(await threads.run(answer(5))).toEqual({ value: 10, threadId: before.threadId });
  }, 20_000);

  it('fails the job of a thread that exits or throws uncaught, and answers the next on a new thread', async () => {
    const threads = pool(1);
    const first = await threads.run(answer(1));
    await expect(threads.run({ do: 'exit' })).rejects.toThrow(/exited with code:? 3/);
    const second = await threads.run(answer(2));
    expect(second.value).toBe(4);
    expect(second.threadId).not.toBe(first.threadId);
    await expect(threads.run({ do: 'uncaught' })).rejects.toThrow('sampler table corrupt');
    const third = await threads.run(answer(3));
    expect(third.value).toBe(6);
    expect(third.threadId).not.toBe(second.threadId);
    expect(threads.size).toBe(1);
  }, 20_000);

  it('fails the job of a thread that outgrows its heap bound, and answers the next on a new thread', async () => {
    const threads = pool(1, 8, 10_000, 16);
    const first = await threads.run(answer(1));
    await expect(threads.run({ do: 'hoard' })).rejects.toThrow(/out of memory/i);
    const next = await threads.run(answer(2));
    expect(next.value).toBe(4);
    expect(next.threadId).not.toBe(first.threadId);
  }, 20_000);

  it('fails a job not answered in time and replaces its thread, while the other threads go on', async () => {
    const threads = pool(2, 8, 3_000);
    const warm = await Promise.all([threads.run(answer(1, 100)), threads.run(answer(2, 100))]);
    const hung = threads.run({ do: 'hang' });
    expect(await threads.run(answer(7))).toMatchObject({ value: 14 });
    await expect(hung).rejects.toThrow('no answer from the worker thread within 3000 ms');
    const after = await Promise.all([threads.run(answer(3, 100)), threads.run(answer(4, 100))]);
    expect(after.map((a) => a.value)).toEqual([6, 8]);
    const before = new Set(warm.map((a) => a.threadId));
    expect(after.filter((a) => !before.has(a.threadId))).toHaveLength(1);
  }, 20_000);

  it('refuses a job at once when every thread is busy and the queue is full, and answers the others', async () => {
    const threads = pool(1, 2);
    await threads.run(answer(0)); // started
    const running = threads.run(answer(1, 300));
    const queued = [threads.run(answer(2)), threads.run(answer(3))];
    expect(threads.queued).toBe(2);
    await expect(threads.run(answer(4))).rejects.toBeInstanceOf(ThreadPoolFull);
    expect((await Promise.all([running, ...queued])).map((a) => a.value)).toEqual([2, 4, 6]);
    expect(threads.queued).toBe(0);
    expect(await threads.run(answer(5))).toMatchObject({ value: 10 });
  }, 20_000);

  it('with no queue, takes one job per idle thread and refuses the rest', async () => {
    const threads = pool(1, 0);
    const running = threads.run(answer(1, 300));
    await expect(threads.run(answer(2))).rejects.toBeInstanceOf(ThreadPoolFull);
    expect(await running).toMatchObject({ value: 2 });
  }, 20_000);

  it('when closed, answers the jobs its threads hold and fails those waiting, and any job after', async () => {
    const threads = pool(1);
    await threads.run(answer(0)); // started
    const running = threads.run(answer(1, 300));
    const waiting = expect(threads.run(answer(2))).rejects.toThrow('the thread pool is closed');
    await threads.close();
    await waiting;
    expect(await running).toMatchObject({ value: 2 });
    await expect(threads.run(answer(3))).rejects.toThrow('the thread pool is closed');
  }, 20_000);

  it('when closed while its threads load, stops each only once it has loaded', async () => {
    const threads = createThreadPool<PoolTestJob, Answer>({
      module: testThread,
      threads: 2,
      startNow: true,
      workerData: { loadMs: 500 },
    });
    pools.push(threads);
    const told: unknown[] = [];
    threads.onMessage((message) => told.push(message));
    await threads.close();
    // The pool's own "loaded" messages are not passed on; the threads' are.
    expect(told).toEqual([{ loadedAfterMs: 500 }, { loadedAfterMs: 500 }]);
    expect(threads.size).toBe(0);
  }, 20_000);

  it('started ahead, has every thread running, and holds several jobs per thread if asked', async () => {
    const threads = startedPool({ jobsPerThread: 2 });
    expect(threads.size).toBe(2);
    // Four slow jobs on two threads of two: each thread holds two at once, so none waits in the pool.
    const answers = await Promise.all([1, 2, 3, 4].map((v) => threads.run(answer(v, 100))));
    expect(answers.map((a) => a.value)).toEqual([2, 4, 6, 8]);
    const perThread = new Map<number, number>();
    for (const a of answers) perThread.set(a.threadId, (perThread.get(a.threadId) ?? 0) + 1);
    expect([...perThread.values()]).toEqual([2, 2]);
  }, 20_000);

  it('runs its threads at the nice value asked, and leaves the event loop’s thread at its own', async () => {
    const threads = startedPool({ niceIncrement: 10 });
    const nice = { do: 'nice', value: 0, busyMs: 200 } as const;
    const answers = await Promise.all([threads.run(nice), threads.run(nice)]);
    expect(new Set(answers.map((a) => a.threadId)).size).toBe(2);
    // Field 19 of /proc/<pid>/stat is the main thread's nice value (Linux, where this runs).
    const own = Number(readFileSync(`/proc/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    expect(getPriority()).toBe(own);
    // Added to the process's own value; no thread is nicer than 19.
    expect(answers.map((a) => a.value)).toEqual([Math.min(19, own + 10), Math.min(19, own + 10)]);
  }, 20_000);

  it('fails every waiting job at once when a thread cannot start, instead of starting one per job', async () => {
    const broken = (startNow: boolean) =>
      createThreadPool<PoolTestJob, Answer>({
        module: new URL('../support/no-such-thread.ts', import.meta.url),
        threads: 1,
        startNow,
      });
    const started = broken(true);
    pools.push(started);
    await expect(started.run(answer(1))).rejects.toThrow(/no-such-thread/);
    const lazy = broken(false);
    pools.push(lazy);
    const jobs = [1, 2, 3].map((v) => lazy.run(answer(v)));
    for (const job of jobs) await expect(job).rejects.toThrow(/no-such-thread/);
  }, 20_000);
});
