import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { cpuByRole, libuvPoolThreadIds, readThreadCpu } from './thread-cpu.ts';

// The simulate bench's per-thread CPU breakdown. Reading /proc is Linux only; elsewhere the bench leaves the
// breakdown out, and so do these specs.
const onLinux = process.platform === 'linux';

describe('cpuByRole', () => {
  it('splits the CPU spent between two readings into main thread, each worker, libuv pool and the rest', () => {
    const main = process.pid;
    const before = new Map([
      [main, 100],
      [501, 0],
      [502, 10],
      [601, 5],
      [701, 40],
    ]);
    const after = new Map([
      [main, 130],
      [501, 900],
      [502, 810],
      [601, 25],
      [701, 240],
      [702, 60], // a helper thread started in between: all of its time counts
    ]);
    expect(cpuByRole(before, after, { workers: [501, 502], libuvPool: new Set([601]) })).toEqual({
      main: 30,
      workers: [900, 800],
      libuvPool: 20,
      other: 260,
      total: 30 + 900 + 800 + 20 + 260,
    });
  });

  it('counts a worker whose thread id is unknown as 0, its time going to the rest', () => {
    const before = new Map([
      [process.pid, 0],
      [501, 0],
    ]);
    const after = new Map([
      [process.pid, 10],
      [501, 70],
    ]);
    expect(cpuByRole(before, after, { workers: [null], libuvPool: new Set() })).toEqual({
      main: 10,
      workers: [0],
      libuvPool: 0,
      other: 70,
      total: 80,
    });
  });
});

describe.runIf(onLinux)('reading this process on Linux', () => {
  it('charges a busy main thread to the main thread', () => {
    const before = readThreadCpu()!;
    const until = performance.now() + 200;
    let spins = 0;
    while (performance.now() < until) spins++;
    const spent = cpuByRole(before, readThreadCpu()!, { workers: [], libuvPool: new Set() });
    expect(spins).toBeGreaterThan(0);
    // 200 ms of wall time spinning: a loaded machine gives the thread less CPU than that, but not nothing.
    expect(spent.main).toBeGreaterThanOrEqual(20);
    expect(spent.main).toBeLessThanOrEqual(spent.total);
  });

  it('finds the libuv pool: as many threads as UV_THREADPOOL_SIZE, none of them the main thread', async () => {
    const pool = await libuvPoolThreadIds();
    expect(pool.size).toBe(Number(process.env.UV_THREADPOOL_SIZE) || 4);
    expect(pool.has(process.pid)).toBe(false);
    for (const task of pool) expect(readThreadCpu()!.has(task)).toBe(true);
  });

  it('charges a busy worker thread to the id it reports from /proc/thread-self', async () => {
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const id = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
       // on, not once: a listener keeps the thread alive (and its /proc entry there) until it is terminated.
       parentPort.on('message', () => {
         const until = performance.now() + 200;
         while (performance.now() < until);
         parentPort.postMessage('done');
       });
       parentPort.postMessage(id);`,
      { eval: true },
    );
    try {
      const id = await new Promise<number>((resolve) => worker.once('message', resolve));
      const before = readThreadCpu()!;
      worker.postMessage('go');
      await new Promise((resolve) => worker.once('message', resolve));
      const spent = cpuByRole(before, readThreadCpu()!, { workers: [id], libuvPool: new Set() });
      expect(spent.workers[0]).toBeGreaterThanOrEqual(20);
      expect(spent.workers[0]).toBeGreaterThan(spent.main);
    } finally {
      await worker.terminate();
    }
  });
});
