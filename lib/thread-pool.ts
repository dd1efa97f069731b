import { readlinkSync } from 'node:fs';
import { parentPort, Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A fixed number of worker threads answering jobs, for CPU work that must not hold up the event loop: the
 * serving process's REM profiles and the simulate stage's clusters both run on it. Jobs wait in a queue
 * (bounded if asked: beyond it ThreadPoolFull, at once) and go to the least busy thread with room; a thread
 * that dies or overruns a job's deadline fails only its own jobs and is replaced when the next job needs
 * it, so a caller always gets an answer or an error, never a wait without end.
 */

/**
 * The source a Worker evaluates to run module `name` beside `callerUrl`: from the sources, the .ts through
 * tsx (whether this process runs on tsx or under the test runner); from dist/, the compiled .js.
 */
export function threadBootstrap(callerUrl: string, name: string): string {
  const fromSources = callerUrl.endsWith('.ts');
  const file = JSON.stringify(new URL(`./${name}.${fromSources ? 'ts' : 'js'}`, callerUrl).href);
  return fromSources
    ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${file}); })`
    : `import(${file})`;
}

type ToThread<In> = { id: number; input: In };
type FromThread<Out> =
  { ready: true; systemThreadId: number | null } | { id: number; output?: Out; error?: string };

/**
 * In a thread's module: answers the pool's jobs with `handle` (a thrown error fails only that job), once
 * `ready` has resolved (what the thread loads before it can answer, e.g. a model).
 */
export function serveThreadJobs<In, Out>(
  handle: (input: In) => Promise<Out>,
  ready: Promise<unknown> = Promise.resolve(),
): void {
  const port = parentPort!;
  port.on('message', ({ id, input }: ToThread<In>) => {
    ready
      .then(() => handle(input))
      .then(
        (output) => port.postMessage({ id, output } satisfies FromThread<Out>),
        (error: unknown) =>
          port.postMessage({
            id,
            error: String((error as Error)?.message ?? error),
          } satisfies FromThread<Out>),
      );
  });
  void ready.then(() => port.postMessage({ ready: true, systemThreadId: systemThreadId() }));
}

/**
 * The thread's id in the operating system (Linux: /proc/thread-self → <pid>/task/<tid>), so the pool's
 * owner can read each thread's CPU time from /proc (the simulate bench's per-thread breakdown).
 */
function systemThreadId(): number | null {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
}

/** The queue is full: the caller should answer "busy, retry" rather than wait. */
export class ThreadPoolFull extends Error {
  constructor(queued: number) {
    super(`${queued} jobs are already waiting for a thread`);
    this.name = 'ThreadPoolFull';
  }
}

export interface ThreadPoolOptions {
  /** What each Worker evaluates (see threadBootstrap). */
  bootstrap: string;
  threads: number;
  /** Handed to each thread as its `workerData` (e.g. a model's bytes). */
  workerData?: unknown;
  /**
   * Jobs a thread holds at once (default 1). Two keep the next job in a busy thread's port, so it never
   * waits for a round trip between jobs, while the rest wait here rather than in the thread's memory.
   */
  jobsPerThread?: number;
  /** Jobs that may wait for a thread; one more is refused with ThreadPoolFull (default: no bound). */
  maxQueued?: number;
  /** A job not answered in this time fails and its thread is terminated (and replaced) (default: no limit). */
  timeoutMs?: number;
  /** Each thread's heap sizes (a thread that runs out fails like one that crashes). */
  resourceLimits?: ResourceLimits;
  /**
   * The threads' nice value (Linux: a thread's own; 0–19, higher yields more): threads whose work may
   * wait while the event loop answers requests on the same cores. Default: the process's.
   */
  niceness?: number;
}

interface Job<In, Out> {
  input: In;
  resolve(output: Out): void;
  reject(error: Error): void;
}

interface Thread<Out> {
  worker: Worker;
  jobs: Map<number, Pick<Job<unknown, Out>, 'resolve' | 'reject'> & { timer?: NodeJS.Timeout }>;
  systemThreadId: number | null;
  ready: Promise<void>;
  isReady: boolean;
}

export class ThreadPool<In, Out> {
  private readonly threads = new Set<Thread<Out>>();
  /** Waiting jobs from `head` on: a national stage queues tens of thousands, and shifting would copy them. */
  private queue: Job<In, Out>[] = [];
  private head = 0;
  private nextId = 0;
  private closed = false;
  private readonly jobsPerThread: number;

  constructor(private readonly options: ThreadPoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1)
      throw new RangeError(`threads must be ≥ 1, got ${options.threads}`);
    this.jobsPerThread = options.jobsPerThread ?? 1;
  }

  /** Threads alive now (started on the first jobs, or by `start`, and replaced after a failure when needed). */
  get size(): number {
    return this.threads.size;
  }

  /** Jobs waiting for a thread now. */
  get queued(): number {
    return this.queue.length - this.head;
  }

  get concurrency(): number {
    return this.options.threads;
  }

  /** Each live thread's id in the operating system (Linux), null where it cannot be read. */
  get systemThreadIds(): (number | null)[] {
    return [...this.threads].map((thread) => thread.systemThreadId);
  }

  /**
   * Starts every thread now and resolves once each has loaded what it needs (instead of on the first jobs);
   * rejects with the error of a thread that could not start.
   */
  async start(): Promise<void> {
    while (this.threads.size < this.options.threads) this.startThread();
    await Promise.all([...this.threads].map((thread) => thread.ready));
  }

  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(new Error('the thread pool is closed'));
    const waiting = this.queued;
    if (this.options.maxQueued !== undefined && waiting >= this.options.maxQueued && !this.hasRoom())
      return Promise.reject(new ThreadPoolFull(waiting));
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the thread pool is closed');
    for (const job of this.takeQueued()) job.reject(error);
    const threads = [...this.threads];
    for (const thread of threads) this.fail(thread, error);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private hasRoom(): boolean {
    if (this.threads.size < this.options.threads) return true;
    for (const thread of this.threads) if (thread.jobs.size < this.jobsPerThread) return true;
    return false;
  }

  /**
   * Starts the missing threads (all at once, so a burst does not wait for one start after another) and
   * gives the waiting jobs to the least busy threads while one has room. Only while jobs wait: a thread that
   * cannot start fails the jobs given to it, instead of being restarted for ever.
   */
  private dispatch(): void {
    if (this.head === this.queue.length) return;
    while (this.threads.size < this.options.threads) this.startThread();
    while (this.head < this.queue.length) {
      let thread: Thread<Out> | undefined;
      for (const candidate of this.threads)
        if (!thread || candidate.jobs.size < thread.jobs.size) thread = candidate;
      if (!thread || thread.jobs.size >= this.jobsPerThread) return;
      const job = this.queue[this.head++]!;
      const id = this.nextId++;
      const held: Thread<Out>['jobs'] extends Map<number, infer V> ? V : never = {
        resolve: job.resolve,
        reject: job.reject,
      };
      const { timeoutMs } = this.options;
      if (timeoutMs !== undefined) {
        const condemned = thread;
        held.timer = setTimeout(() => {
          this.fail(condemned, new Error(`no answer from the worker thread within ${timeoutMs} ms`));
          void condemned.worker.terminate();
        }, timeoutMs);
      }
      thread.jobs.set(id, held);
      thread.worker.postMessage({ id, input: job.input } satisfies ToThread<In>);
    }
    this.queue = [];
    this.head = 0;
  }

  private takeQueued(): Job<In, Out>[] {
    const rest = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    return rest;
  }

  private startThread(): void {
    const { niceness } = this.options;
    // First thing in the thread, so its start (modules, model) yields too. Under NPTL a nice value is per
    // thread, and setpriority on "this process" sets the calling thread's alone; raising it needs no
    // privilege, and where it fails the thread keeps the process's priority (a slower event loop under
    // load, not a failure).
    const lowered =
      niceness === undefined ? '' : `try { require('node:os').setPriority(${Number(niceness)}); } catch {}\n`;
    const worker = new Worker(lowered + this.options.bootstrap, {
      eval: true,
      workerData: this.options.workerData,
      resourceLimits: this.options.resourceLimits,
    });
    worker.unref(); // idle threads do not keep the process alive; a waiting job's timer does
    let ready!: () => void;
    let unready!: (error: Error) => void;
    const thread: Thread<Out> = {
      worker,
      jobs: new Map(),
      systemThreadId: null,
      ready: new Promise<void>((resolve, reject) => ((ready = resolve), (unready = reject))),
      isReady: false,
    };
    thread.ready.catch(() => undefined); // a lazy pool awaits no thread's start: its jobs carry the error
    this.threads.add(thread);
    worker.on('message', (message: FromThread<Out>) => {
      if ('ready' in message) {
        thread.systemThreadId = message.systemThreadId;
        thread.isReady = true;
        return ready();
      }
      const job = thread.jobs.get(message.id);
      if (!job) return;
      clearTimeout(job.timer);
      thread.jobs.delete(message.id);
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.output!);
      this.dispatch();
    });
    const died = (error: Error) => {
      unready(error);
      this.fail(thread, error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`worker thread exited with code ${code}`)));
  }

  /**
   * Takes a dead (or condemned) thread out of the pool: its jobs fail, the next job starts a new one. A
   * thread that died before it was ready cannot start (a broken module, an unreadable model): the waiting
   * jobs fail with its error too, rather than each starting another thread that fails the same way.
   */
  private fail(thread: Thread<Out>, error: Error): void {
    if (!this.threads.delete(thread)) return;
    for (const job of thread.jobs.values()) {
      clearTimeout(job.timer);
      job.reject(error);
    }
    thread.jobs.clear();
    if (!thread.isReady) for (const job of this.takeQueued()) job.reject(error);
    if (!this.closed) this.dispatch();
  }
}
