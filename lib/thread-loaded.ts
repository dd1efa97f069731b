import { parentPort, threadId } from 'node:worker_threads';

/** The field of the message a thread-pool thread posts once it has loaded what its jobs need. */
export const THREAD_LOADED = 'threadLoaded';

/**
 * Called by a thread module (lib/thread-pool.ts) with what it loads before answering (a model): tells the
 * pool once that settles, loaded or failed. Until then the pool does not stop the thread, because
 * onnxruntime aborts the whole process when the thread it is creating a session on is terminated.
 */
export function reportLoaded(loading: Promise<unknown>): void {
  const report = () => parentPort?.postMessage({ [THREAD_LOADED]: threadId });
  loading.then(report, report);
}

/** The thread id a THREAD_LOADED message names; undefined for any other message. */
export function loadedThreadOf(message: unknown): number | undefined {
  if (typeof message !== 'object' || message === null || !(THREAD_LOADED in message)) return undefined;
  const id = (message as Record<typeof THREAD_LOADED, unknown>)[THREAD_LOADED];
  return typeof id === 'number' ? id : undefined;
}
