import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { loadedThreadOf } from './thread-loaded.ts';

/**
 * Worker threads for CPU work that must not hold up the event loop (the server's REM model, the simulate
 * stage's clusters): a piscina pool, whose thread module's default export answers each job. What this adds
 * to piscina: the thread module runs from the TypeScript sources under tsx or from dist/'s JavaScript, a full
 * queue is ThreadPoolFull at once, a timed-out job says so, and a thread that cannot start fails the
 * waiting jobs.
 */

/** The queue is full: the caller should answer "busy, retry" rather than wait. */
export class ThreadPoolFull extends Error {
  constructor(queued: number) {
    super(`${queued} jobs are already waiting for a thread`);
    this.name = 'ThreadPoolFull';
  }
}

export interface ThreadPoolOptions {
  /**
   * The thread module's source (.ts): its default export answers a job (a thrown error fails only that
   * job), and it calls reportLoaded (lib/thread-loaded.ts) with what it loads first. From dist/, the
   * compiled .js beside it runs.
   */
  module: URL;
  threads: number;
  /** Start every thread now (default: on the first jobs, one per job up to `threads`). */
  startNow?: boolean;
  /** Handed to each thread as its `workerData` (e.g. a model's bytes). */
  workerData?: unknown;
  /** Jobs a thread holds at once (default 1). */
  jobsPerThread?: number;
  /** Jobs that may wait for a thread; one more is refused at once with ThreadPoolFull (default: no bound). */
  maxQueued?: number;
  /** A job not answered in this time (waiting included) fails and its thread is replaced (default: none). */
  timeoutMs?: number;
  /** Each thread's heap sizes (a thread that runs out fails its jobs like one that crashes). */
  resourceLimits?: ResourceLimits;
  /** Added to each thread's nice value (Linux: a thread's own, capped at 19): work that may wait. */
  niceIncrement?: number;
}

export interface ThreadPool<In, Out> {
  run(input: In): Promise<Out>;
  /** Threads alive now (started on the first jobs unless `startNow`, replaced after a failure when needed). */
  readonly size: number;
  /** Jobs waiting for a thread now. */
  readonly queued: number;
  readonly concurrency: number;
  /** Messages a thread posts itself (parentPort.postMessage), e.g. what it tells about itself. */
  onMessage(listener: (message: unknown) => void): void;
  /**
   * Fails the jobs waiting for a thread and any after; stops the threads once each has loaded and answered
   * the jobs it holds.
   */
  close(): Promise<void>;
}

/**
 * From the sources (this file is a .ts, under tsx or the test runner) the module runs through tsx; from
 * dist/, its compiled .js.
 */
function threadModule(module: URL): { filename: string; execArgv?: string[] } {
  const source = fileURLToPath(module);
  if (!import.meta.url.endsWith('.ts')) return { filename: source.replace(/\.ts$/, '.js') };
  // tsx's ESM hooks only: with its CommonJS ones, piscina's require() of the module would run it as CJS.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  return { filename: source, execArgv: ['--import', tsx] };
}

/** How long stopping the pool waits for a thread still loading before terminating it anyway. */
const LOAD_WAIT_MS = 30_000;

export function createThreadPool<In, Out>(options: ThreadPoolOptions): ThreadPool<In, Out> {
  if (!Number.isInteger(options.threads) || options.threads < 1)
    throw new RangeError(`threads must be ≥ 1, got ${options.threads}`);
  const jobsPerThread = options.jobsPerThread ?? 1;
  const pool = new Piscina({
    ...threadModule(options.module),
    minThreads: options.startNow ? options.threads : 0,
    maxThreads: options.threads,
    idleTimeout: Infinity,
    concurrentTasksPerWorker: jobsPerThread,
    workerData: options.workerData,
    resourceLimits: options.resourceLimits,
    niceIncrement: options.niceIncrement ?? 0,
    // Idle threads wait on their port (as a thread with a model still loading must), not in Atomics.wait.
    atomics: 'disabled',
  });
  // Piscina's maxQueue does not count jobs that carry an abort signal (the timeout), so jobs are counted
  // here: those beyond what the threads hold and `maxQueued` are refused.
  const capacity = options.threads * jobsPerThread;
  let jobs = 0;
  const queued = () => Math.max(0, jobs - capacity);
  let answered = false;
  let closed = false;
  let broken: Error | undefined;
  const loadedThreads = new Set<number>();
  pool.on('message', (message) => {
    const id = loadedThreadOf(message);
    if (id !== undefined) loadedThreads.add(id);
  });
  const untilLoaded = (thread: Worker) =>
    new Promise<void>((resolve) => {
      if (loadedThreads.has(thread.threadId)) return resolve();
      const done = () => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('exit', done);
        resolve();
      };
      const onMessage = (message: unknown) => {
        if (loadedThreadOf(message) === thread.threadId) done();
      };
      const timer = setTimeout(done, LOAD_WAIT_MS);
      thread.on('message', onMessage);
      thread.once('exit', done);
    });
  // onnxruntime aborts the whole process when a thread is terminated while it creates or runs a session, so
  // the threads are stopped only once each has loaded, and has answered the jobs it holds.
  const stopThreads = async () => {
    await Promise.all(pool.threads.map(untilLoaded));
    await pool.close({ force: true });
  };
  // A thread that fails before any job was answered could not start (a broken module, an unreadable model):
  // the waiting jobs, and any after, fail with its error rather than wait for a thread that will not come.
  pool.on('error', (error: Error) => {
    if (answered || broken || closed) return;
    broken = error;
    void stopThreads();
  });
  return {
    run(input) {
      if (closed) return Promise.reject(new Error('the thread pool is closed'));
      if (broken) return Promise.reject(broken);
      if (options.maxQueued !== undefined && jobs >= capacity + options.maxQueued)
        return Promise.reject(new ThreadPoolFull(queued()));
      jobs++;
      const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
      return (pool.run(input, { signal }) as Promise<Out>).then(
        (output) => {
          jobs--;
          answered = true;
          return output;
        },
        (error: unknown) => {
          jobs--;
          if (closed) throw new Error('the thread pool is closed');
          if (broken) throw broken;
          if (signal?.aborted)
            throw new Error(`no answer from the worker thread within ${options.timeoutMs} ms`);
          throw error;
        },
      );
    },
    get size() {
      return pool.threads.length;
    },
    get queued() {
      return queued();
    },
    concurrency: options.threads,
    onMessage(listener) {
      pool.on('message', (message) => {
        if (loadedThreadOf(message) === undefined) listener(message);
      });
    },
    async close() {
      closed = true;
      await stopThreads();
    },
  };
}
