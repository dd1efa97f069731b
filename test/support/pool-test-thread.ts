import { threadId } from 'node:worker_threads';
import { serveThreadJobs } from '../../lib/thread-pool.ts';

/** What a spec asks of a thread-pool thread: to answer, fail, die, outgrow its heap or never answer. */
export type PoolTestJob =
  { do: 'answer'; value: number; busyMs?: number } | { do: 'throw' | 'uncaught' | 'exit' | 'hang' | 'hoard' };

const busyWait = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

serveThreadJobs<PoolTestJob, { value: number; threadId: number }>(async (job) => {
  switch (job.do) {
    case 'answer':
      if (job.busyMs) busyWait(job.busyMs);
      return { value: job.value * 2, threadId };
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
});
