import { availableParallelism } from 'node:os';
import { createThreadPool, type ThreadPool } from '../lib/thread-pool.ts';
import type { RemClusterResult, RemWorkUnit } from '../schemas/rem-stage.ts';

/** Runs work units somewhere and answers their results. */
export interface UnitRunner {
  /** How many units it runs at once. */
  readonly concurrency: number;
  run(unit: RemWorkUnit): Promise<RemClusterResult>;
  close(): Promise<void>;
}

/**
 * Units a thread holds at once: two, so the next unit is already in its port when one finishes (no
 * round-trip idle) while the rest wait in the pool; sending every unit at once made each thread draw and
 * encode all its homes before evaluating any, which held them all in memory (GC-bound) and answered
 * nothing until the end.
 */
const UNITS_PER_THREAD = 2;

export const defaultWorkerCount = (configured: number | undefined): number =>
  configured ?? availableParallelism();

/**
 * The simulate stage's worker threads of this process (the shared thread pool), each with its own surrogate:
 * the embedded log is held by one process, so its main thread consumes and publishes and the threads compute.
 */
export class WorkerPool implements UnitRunner {
  private readonly threadIds: number[] = [];

  private constructor(private readonly pool: ThreadPool<RemWorkUnit, RemClusterResult>) {
    pool.onMessage((message) => {
      const { systemThreadId } = message as { systemThreadId?: number };
      if (systemThreadId !== undefined) this.threadIds.push(systemThreadId);
    });
  }

  get concurrency(): number {
    return this.pool.concurrency;
  }

  /** The started threads' ids in the operating system (Linux task ids, for /proc/self/task/<id>). */
  get systemThreadIds(): readonly number[] {
    return this.threadIds;
  }

  /** Starts `size` threads, each loading the surrogate `onnx` (a unit waits until its thread has). */
  static async start(size: number, onnx: Uint8Array): Promise<WorkerPool> {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`worker count must be ≥ 1, got ${size}`);
    const pool = createThreadPool<RemWorkUnit, RemClusterResult>({
      module: new URL('./worker-thread.ts', import.meta.url),
      threads: size,
      startNow: true,
      workerData: { onnx },
      jobsPerThread: UNITS_PER_THREAD,
    });
    return Promise.resolve(new WorkerPool(pool));
  }

  run(unit: RemWorkUnit): Promise<RemClusterResult> {
    return this.pool.run(unit);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
