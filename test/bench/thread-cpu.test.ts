import { execSync } from 'node:child_process';
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
    // Spins until the kernel has charged this thread 50 ms (however long a loaded machine takes to give them).
    const mainCpu = () => readThreadCpu()!.get(process.pid)!;
    const start = mainCpu();
    const deadline = performance.now() + 20_000;
    while (mainCpu() - start < 50 && performance.now() < deadline) for (let i = 0; i < 100_000; i++);
    const spent = cpuByRole(before, readThreadCpu()!, { workers: [], libuvPool: new Set() });
    expect(spent.main).toBeGreaterThanOrEqual(50);
    expect(spent.main).toBeLessThanOrEqual(spent.total);
  });

  it('finds the libuv pool: as many threads as UV_THREADPOOL_SIZE, none of them the main thread', async () => {
    const pool = await libuvPoolThreadIds();
    expect(pool.size).toBe(Number(process.env.UV_THREADPOOL_SIZE) || 4);
    expect(pool.has(process.pid)).toBe(false);
    for (const task of pool) expect(readThreadCpu()!.has(task)).toBe(true);
  });

  it('charges a busy worker thread to the id it reports from /proc/thread-self', async () => {
    // The worker spins until the kernel has charged it 50 ms (in clock ticks of the length readThreadCpu uses).
    const msPerTick = 1000 / Number(execSync('getconf CLK_TCK').toString());
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const { readFileSync, readlinkSync } = require('node:fs');
       const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
       const cpu = () => {
         const stat = readFileSync('/proc/thread-self/stat', 'utf8');
         const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
         return (Number(fields[11]) + Number(fields[12])) * workerData.msPerTick;
       };
       // on, not once: a listener keeps the worker (and its /proc entry) alive until it is terminated.
       parentPort.on('message', () => {
         const start = cpu();
         const deadline = performance.now() + 20000;
         while (cpu() - start < 50 && performance.now() < deadline) for (let i = 0; i < 100000; i++);
         parentPort.postMessage('done');
       });
       parentPort.postMessage(id);`,
      { eval: true, workerData: { msPerTick } },
    );
    try {
      const id = await new Promise<number>((resolve) => worker.once('message', resolve));
      const before = readThreadCpu()!;
      worker.postMessage('go');
      await new Promise((resolve) => worker.once('message', resolve));
      const spent = cpuByRole(before, readThreadCpu()!, { workers: [id], libuvPool: new Set() });
      expect(spent.workers[0]).toBeGreaterThanOrEqual(50);
      expect(spent.workers[0]).toBeGreaterThan(spent.main);
    } finally {
      await worker.terminate();
    }
  });
});
