import { parentPort, Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A fixed number of worker threads answering jobs one at a time each, for CPU work that must not hold up
 * the event loop. Jobs wait in a bounded queue (beyond it: ThreadPoolFull, at once); a thread that dies or
 * overruns its deadline fails only its own job and is replaced when the next job needs it, so a caller
 * always gets an answer or an error, never a wait without end.
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

/** In a thread's module: answers the pool's jobs with `handle`; a thrown error fails only that job. */
export function serveThreadJobs<In, Out>(handle: (input: In) => Promise<Out>): void {
  const port = parentPort!;
  port.on('message', (input: In) => {
    handle(input).then(
      (output) => port.postMessage({ output }),
      (error: unknown) => port.postMessage({ error: String((error as Error)?.message ?? error) }),
    );
  });
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
  /** Jobs that may wait for a thread; one more is refused with ThreadPoolFull. */
  maxQueued: number;
  /** A job not answered in this time fails and its thread is terminated (and replaced). */
  timeoutMs: number;
  /** Each thread's heap sizes (a thread that runs out fails like one that crashes). */
  resourceLimits?: ResourceLimits;
}

interface Job<In, Out> {
  input: In;
  resolve(output: Out): void;
  reject(error: Error): void;
}

interface Thread<In, Out> {
  worker: Worker;
  job?: Job<In, Out> & { timer: NodeJS.Timeout };
}

export class ThreadPool<In, Out> {
  private readonly threads = new Set<Thread<In, Out>>();
  private readonly idle: Thread<In, Out>[] = [];
  private readonly queue: Job<In, Out>[] = [];
  private closed = false;

  constructor(private readonly options: ThreadPoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1)
      throw new RangeError(`threads must be ≥ 1, got ${options.threads}`);
  }

  /** Threads alive now (started on the first jobs, replaced after a failure when a job needs one). */
  get size(): number {
    return this.threads.size;
  }

  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(new Error('the thread pool is closed'));
    const busy = this.idle.length === 0 && this.threads.size >= this.options.threads;
    if (busy && this.queue.length >= this.options.maxQueued)
      return Promise.reject(new ThreadPoolFull(this.queue.length));
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the thread pool is closed');
    for (const job of this.queue.splice(0)) job.reject(error);
    const threads = [...this.threads];
    for (const thread of threads) this.fail(thread, error);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  /**
   * Starts the missing threads (all of them at once, so a burst does not wait for one start after
   * another) and gives each idle one the next job. Only while jobs wait: a thread that cannot start fails
   * the jobs given to it, one each, instead of being restarted for ever.
   */
  private dispatch(): void {
    if (this.queue.length === 0) return;
    while (this.threads.size < this.options.threads) this.idle.push(this.start());
    while (this.queue.length > 0 && this.idle.length > 0) {
      const thread = this.idle.shift()!;
      const job = this.queue.shift()!;
      const timer = setTimeout(() => {
        this.fail(thread, new Error(`no answer from the worker thread within ${this.options.timeoutMs} ms`));
        void thread.worker.terminate();
      }, this.options.timeoutMs);
      thread.job = { ...job, timer };
      thread.worker.postMessage(job.input);
    }
  }

  private start(): Thread<In, Out> {
    const worker = new Worker(this.options.bootstrap, {
      eval: true,
      resourceLimits: this.options.resourceLimits,
    });
    worker.unref(); // idle threads do not keep the process alive; a waiting job's timer does
    const thread: Thread<In, Out> = { worker };
    this.threads.add(thread);
    worker.on('message', (message: { output?: Out; error?: string }) => {
      const job = thread.job;
      if (!job) return;
      clearTimeout(job.timer);
      thread.job = undefined;
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.output!);
      this.idle.push(thread);
      this.dispatch();
    });
    worker.on('error', (error) => this.fail(thread, error));
    worker.on('exit', (code) => this.fail(thread, new Error(`worker thread exited with code ${code}`)));
    return thread;
  }

  /** Takes a dead (or condemned) thread out of the pool: its job fails, the next job starts a new one. */
  private fail(thread: Thread<In, Out>, error: Error): void {
    if (!this.threads.delete(thread)) return;
    const idleAt = this.idle.indexOf(thread);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    if (thread.job) {
      clearTimeout(thread.job.timer);
      thread.job.reject(error);
      thread.job = undefined;
    }
    if (!this.closed) this.dispatch();
  }
}
