import { readFileSync } from 'node:fs';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { reportLoaded } from '../../lib/thread-loaded.ts';

// What the thread loads before answering: nothing, or for `workerData.loadMs` a wait standing in for a
// model, after which it says so.
const loadMs = (workerData as { loadMs?: number } | undefined)?.loadMs;
reportLoaded(
  loadMs === undefined
    ? Promise.resolve()
    : new Promise((resolve) => setTimeout(resolve, loadMs)).then(() =>
        parentPort?.postMessage({ loadedAfterMs: loadMs }),
      ),
);

/**
 * What a spec asks of a thread-pool thread: to answer, tell its nice value, fail, die, outgrow its heap or
 * never answer.
 */
export type PoolTestJob =
  | { do: 'answer' | 'nice'; value: number; busyMs?: number }
  | { do: 'throw' | 'uncaught' | 'exit' | 'hang' | 'hoard' };

const busyWait = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export default async function answer(job: PoolTestJob): Promise<{ value: number; threadId: number }> {
  switch (job.do) {
    case 'answer':
      if (job.busyMs) busyWait(job.busyMs);
      return { value: job.value * 2, threadId };
    case 'nice':
      if (job.busyMs) busyWait(job.busyMs);
      // Field 19 of /proc/thread-self/stat is the thread's nice value (Linux, where this runs).
      return {
        value: Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]),
        threadId,
      };
    case 'throw':
      throw new Error('no such home');
    case 'uncaught':
      setImmediate(() => {
        throw new Error('sampler table corrupt');
      });
      return new Promise(() => undefined);
    case 'exit':
      process.exit(3);
    // falls through: process.exit does not return
    case 'hoard': {
      const kept: number[][] = [];
      for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => i + kept.length));
    }
    case 'hang':
      return new Promise(() => undefined);
  }
}
