import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ThreadPool,
  ThreadPoolFull,
  threadBootstrap,
  type ThreadPoolOptions,
} from '../../lib/thread-pool.ts';
import type { PoolTestJob } from '../support/pool-test-thread.ts';

type Answer = { value: number; threadId: number };

const pools: ThreadPool<PoolTestJob, Answer>[] = [];
const pool = (threads: number, maxQueued = 8, timeoutMs = 10_000, heapMb?: number) => {
  const made = new ThreadPool<PoolTestJob, Answer>({
    bootstrap: threadBootstrap(import.meta.url, '../support/pool-test-thread'),
    threads,
    maxQueued,
    timeoutMs,
    ...(heapMb ? { resourceLimits: { maxOldGenerationSizeMb: heapMb } } : {}),
  });
  pools.push(made);
  return made;
};
/** Two threads started ahead, with the options given. */
const startedPool = async (options: Pick<ThreadPoolOptions, 'jobsPerThread' | 'niceness'>) => {
  const made = new ThreadPool<PoolTestJob, Answer>({
    bootstrap: threadBootstrap(import.meta.url, '../support/pool-test-thread'),
    threads: 2,
    ...options,
  });
  pools.push(made);
  await made.start();
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
    await expect(threads.run({ do: 'exit' })).rejects.toThrow('worker thread exited with code 3');
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
    const threads = pool(2, 8, 1_500);
    const warm = await Promise.all([threads.run(answer(1, 100)), threads.run(answer(2, 100))]);
    const hung = threads.run({ do: 'hang' });
    expect(await threads.run(answer(7))).toMatchObject({ value: 14 });
    await expect(hung).rejects.toThrow('no answer from the worker thread within 1500 ms');
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

  it('fails the running and waiting jobs when closed, and any job after', async () => {
    const threads = pool(1);
    const running = threads.run(answer(1, 300));
    const waiting = expect(threads.run(answer(2))).rejects.toThrow('the thread pool is closed');
    const stopped = expect(running).rejects.toThrow('the thread pool is closed');
    await threads.close();
    await waiting;
    await stopped;
    await expect(threads.run(answer(3))).rejects.toThrow('the thread pool is closed');
  }, 20_000);

  it('started ahead, has every thread ready with its system id, and holds several jobs per thread if asked', async () => {
    const threads = await startedPool({ jobsPerThread: 2 });
    expect(threads.size).toBe(2);
    expect(threads.systemThreadIds.every((id) => id === null || Number.isInteger(id))).toBe(true);
    // Four slow jobs on two threads of two: each thread holds two at once, so none waits in the pool.
    const answers = await Promise.all([1, 2, 3, 4].map((v) => threads.run(answer(v, 100))));
    expect(answers.map((a) => a.value)).toEqual([2, 4, 6, 8]);
    const perThread = new Map<number, number>();
    for (const a of answers) perThread.set(a.threadId, (perThread.get(a.threadId) ?? 0) + 1);
    expect([...perThread.values()]).toEqual([2, 2]);
  }, 20_000);

  it('runs its threads at the nice value asked, and leaves the event loop’s thread at its own', async () => {
    const threads = await startedPool({ niceness: 10 });
    // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value (Linux, where this runs).
    const niceOf = (tid: number | string) =>
      Number(readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    // A process already nicer than 10 keeps its value (lowering one needs a privilege).
    const own = getPriority();
    expect(threads.systemThreadIds.map((tid) => niceOf(tid!))).toEqual([
      Math.max(10, own),
      Math.max(10, own),
    ]);
    expect(niceOf(process.pid)).toBe(own);
  }, 20_000);

  it('fails every waiting job at once when a thread cannot start, instead of starting one per job', async () => {
    const broken = () =>
      new ThreadPool<PoolTestJob, Answer>({
        bootstrap: threadBootstrap(import.meta.url, '../support/no-such-thread'),
        threads: 1,
      });
    const started = broken();
    pools.push(started);
    await expect(started.start()).rejects.toThrow(/no-such-thread/);
    const lazy = broken();
    pools.push(lazy);
    const jobs = [1, 2, 3].map((v) => lazy.run(answer(v)));
    for (const job of jobs) await expect(job).rejects.toThrow(/no-such-thread/);
  }, 20_000);
});
