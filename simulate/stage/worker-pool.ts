import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
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

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

// From the sources, a thread loads TypeScript through tsx (whether this process runs on tsx or under the
// test runner); from the compiled copy in dist/, it loads the compiled worker.
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER_FILE = new URL(FROM_SOURCES ? './worker-thread.ts' : './worker-thread.js', import.meta.url).href;
const BOOTSTRAP = FROM_SOURCES
  ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER_FILE)}); })`
  : `import(${JSON.stringify(WORKER_FILE)})`;

export const defaultWorkerCount = (configured: number | undefined): number =>
  configured ?? availableParallelism();

/**
 * Worker threads of this process, each with its own surrogate: the embedded log is held by one process,
 * so its main thread consumes and publishes and the threads compute. Units go to the least busy thread.
 */
export class WorkerPool implements UnitRunner {
  private nextId = 0;

  private constructor(private readonly slots: Slot[]) {}

  get concurrency(): number {
    return this.slots.length;
  }

  static async start(size: number, onnx: Uint8Array): Promise<WorkerPool> {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`worker count must be ≥ 1, got ${size}`);
    const slots = await Promise.all(Array.from({ length: size }, () => startWorker(onnx)));
    return new WorkerPool(slots);
  }

  run(unit: RemWorkUnit): Promise<RemClusterResult> {
    const slot = this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, unit });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}

function startWorker(onnx: Uint8Array): Promise<Slot> {
  const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { onnx } });
  const slot: Slot = { worker, pending: new Map() };
  const failAll = (error: Error) => {
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
  };
  return new Promise((resolve, reject) => {
    worker.on(
      'message',
      (message: { ready?: true; id?: number; result?: RemClusterResult; error?: string }) => {
        if (message.ready) return resolve(slot);
        const pending = slot.pending.get(message.id!);
        if (!pending) return;
        slot.pending.delete(message.id!);
        if (message.error !== undefined) pending.reject(new Error(message.error));
        else pending.resolve(message.result!);
      },
    );
    worker.on('error', (error) => {
      reject(error);
      failAll(error);
    });
    worker.on('exit', (code) => failAll(new Error(`simulate worker thread exited with code ${code}`)));
  });
}
