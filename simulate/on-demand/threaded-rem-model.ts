import { createThreadPool } from '../../lib/thread-pool.ts';
import type { ClusterOutcome, ProfileOutcome, RemModel } from '../../schemas/rem-model.ts';
import { committedModelVersions } from '../../model/surrogate/committed-model.ts';
import type { ModelJob, ModelJobOutcome } from './model-jobs.ts';

export interface ThreadedRemModelOptions {
  /** Threads computing clusters and profiles (REM_MODEL_THREADS). */
  threads: number;
  /** Jobs that may wait for a thread; one more is refused at once with ThreadPoolFull (REM_MODEL_QUEUE). */
  maxQueued: number;
}

/**
 * A job not answered in this time fails and its thread is replaced: a job is milliseconds of work, but a
 * thread's first job also waits for it to load its modules and surrogate (seconds on a busy machine).
 */
const JOB_TIMEOUT_MS = 30_000;
/**
 * A model thread's heap bound: a thread keeps its modules, sampler tables and surrogate live and a job
 * allocates a few MB more, so a tight bound makes V8 collect early instead of letting the thread's heap
 * grow (the REM bench reports the RSS it costs); a thread that still runs out dies like a crashed one.
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

/**
 * The model threads' nice value: their jobs can wait a little, the event loop's answers cannot. At 19 the
 * scheduler gives the event loop's thread about seventy times their share of a core it wants, so a scan of
 * never-asked counties does not put the cached answers' tail behind the model's work. At 10 (a tenth) it
 * still did: in the REM bench, on 2 saturated cores, the cached calculator's p99 rose 3 → 7 ms beside 8
 * never-asked counties a second; at 19, by 1–2 ms in four runs (3 → 4 or 5 ms), while the counties' own
 * p99 went from about 130 to 170–270 ms.
 */
const MODEL_THREAD_NICENESS = 19;

/** The module each model thread runs (its code's fingerprint is in the server's ETags). */
export const REM_MODEL_THREAD = new URL('./rem-model-thread.ts', import.meta.url);

/**
 * The REM model the server is given: the committed surrogate on a few worker threads (started on the first
 * job), so no request's model work runs on the event loop; a full queue refuses a job at once.
 */
export function threadedRemModel(options: ThreadedRemModelOptions): RemModel {
  const pool = createThreadPool<ModelJob, ModelJobOutcome>({
    module: REM_MODEL_THREAD,
    threads: options.threads,
    maxQueued: options.maxQueued,
    timeoutMs: JOB_TIMEOUT_MS,
    resourceLimits: THREAD_HEAP,
    // From the process's own nice value (0 for a server), capped at 19.
    niceIncrement: MODEL_THREAD_NICENESS,
  });
  return {
    versions: committedModelVersions(),
    cluster: (job) => pool.run({ kind: 'cluster', job }) as Promise<ClusterOutcome>,
    profile: (job) => pool.run({ kind: 'profile', job }) as Promise<ProfileOutcome>,
    queued: () => pool.queued,
    close: () => pool.close(),
  };
}
