import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { threadBootstrap } from '../../lib/thread-pool.ts';
import type { RemClusterResult, RemWorkUnit } from '../../schemas/rem-stage.ts';

/** Runs work units somewhere and answers their results. */
export interface UnitRunner {
  /** How many units it runs at once. */
  readonly concurrency: number;
  run(unit: RemWorkUnit): Promise<RemClusterResult>;
  close(): Promise<void>;
}

interface Pending {
  resolve(result: RemClusterResult): void;
  reject(error: Error): void;
}

interface Queued extends Pending {
  unit: RemWorkUnit;
}

interface Slot {
  worker: Worker;
  /** The thread's id in the operating system (Linux), null where it cannot be read. */
  systemThreadId: number | null;
  pending: Map<number, Pending>;
  /** Why the thread stopped, once it has: it gets no more units. */
  failed?: Error;
}

/**
 * Units sent to a thread before it answers: two, so the next unit is already in its port when one finishes
 * (no round-trip idle) while the rest wait here; sending every unit at once made each thread draw and
 * encode all its homes before evaluating any, which held them all in memory (GC-bound) and answered
 * nothing until the end.
 */
const IN_FLIGHT_PER_THREAD = 2;

const BOOTSTRAP = threadBootstrap(import.meta.url, 'worker-thread');

export const defaultWorkerCount = (configured: number | undefined): number =>
  configured ?? availableParallelism();

/**
 * Worker threads of this process, each with its own surrogate: the embedded log is held by one process,
 * so its main thread consumes and publishes and the threads compute. Units go to the least busy thread.
 */
export class WorkerPool implements UnitRunner {
  private nextId = 0;
  private queue: Queued[] = [];
  /** Position in `queue` of the next unit to send (shifting a national queue would copy it each time). */
  private head = 0;
  private slots: Slot[] = [];

  get concurrency(): number {
    return this.slots.length;
  }

  /** Each thread's id in the operating system (Linux task id, for /proc/self/task/<id>), null elsewhere. */
  get systemThreadIds(): (number | null)[] {
    return this.slots.map((slot) => slot.systemThreadId);
  }

  static async start(size: number, onnx: Uint8Array): Promise<WorkerPool> {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`worker count must be ≥ 1, got ${size}`);
    const pool = new WorkerPool();
    pool.slots = await Promise.all(
      Array.from({ length: size }, () => startWorker(onnx, () => pool.dispatch())),
    );
    return pool;
  }

  run(unit: RemWorkUnit): Promise<RemClusterResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ unit, resolve, reject });
      this.dispatch();
    });
  }

  /** Sends queued units to the least busy threads while some thread has room. */
  private dispatch(): void {
    while (this.head < this.queue.length) {
      const live = this.slots.filter((slot) => !slot.failed);
      if (live.length === 0) {
        const error = this.slots[0]?.failed ?? new Error('no simulate worker thread');
        for (const queued of this.takeQueued()) queued.reject(error);
        return;
      }
      const slot = live.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      if (slot.pending.size >= IN_FLIGHT_PER_THREAD) return;
      const { unit, resolve, reject } = this.queue[this.head++]!;
      const id = this.nextId++;
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, unit });
    }
    this.queue = [];
    this.head = 0;
  }

  private takeQueued(): Queued[] {
    const rest = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    return rest;
  }

  async close(): Promise<void> {
    for (const queued of this.takeQueued()) queued.reject(new Error('the worker pool was closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}

/** Starts a thread; onFree is called whenever it answers a unit or stops. */
function startWorker(onnx: Uint8Array, onFree: () => void): Promise<Slot> {
  const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { onnx } });
  const slot: Slot = { worker, systemThreadId: null, pending: new Map() };
  const failAll = (error: Error) => {
    slot.failed = error;
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
    onFree(); // queued units go to the other threads, or fail with this error when none is left
  };
  return new Promise((resolve, reject) => {
    worker.on(
      'message',
      (message: {
        ready?: true;
        systemThreadId?: number | null;
        id?: number;
        result?: RemClusterResult;
        error?: string;
      }) => {
        if (message.ready) {
          slot.systemThreadId = message.systemThreadId ?? null;
          return resolve(slot);
        }
        const pending = slot.pending.get(message.id!);
        if (!pending) return;
        slot.pending.delete(message.id!);
        if (message.error !== undefined) pending.reject(new Error(message.error));
        else pending.resolve(message.result!);
        onFree(); // the thread has room for the next queued unit
      },
    );
    worker.on('error', (error) => {
      reject(error);
      failAll(error);
    });
    worker.on('exit', (code) => failAll(new Error(`simulate worker thread exited with code ${code}`)));
  });
}
