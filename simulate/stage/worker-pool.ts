import { availableParallelism } from 'node:os';
import { ThreadPool, threadBootstrap } from '../../lib/thread-pool.ts';
import type { RemClusterResult, RemWorkUnit } from '../../schemas/rem-stage.ts';

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
  private constructor(private readonly pool: ThreadPool<RemWorkUnit, RemClusterResult>) {}

  get concurrency(): number {
    return this.pool.concurrency;
  }

  /** Each thread's id in the operating system (Linux task id, for /proc/self/task/<id>), null elsewhere. */
  get systemThreadIds(): (number | null)[] {
    return this.pool.systemThreadIds;
  }

  /** Starts `size` threads, each loading the surrogate `onnx`, and resolves once they are ready. */
  static async start(size: number, onnx: Uint8Array): Promise<WorkerPool> {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`worker count must be ≥ 1, got ${size}`);
    const pool = new ThreadPool<RemWorkUnit, RemClusterResult>({
      bootstrap: threadBootstrap(import.meta.url, 'worker-thread'),
      threads: size,
      workerData: { onnx },
      jobsPerThread: UNITS_PER_THREAD,
    });
    await pool.start();
    return new WorkerPool(pool);
  }

  run(unit: RemWorkUnit): Promise<RemClusterResult> {
    return this.pool.run(unit);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
