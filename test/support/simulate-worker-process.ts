import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { startLoggedProcess, type LoggedProcess } from './logged-process.ts';
import { THIS_MACHINE, type Placement } from './processes.ts';

/** An `npm run simulate:worker` process a spec started, with what it logged. */
export type WorkerProcess = LoggedProcess;

/**
 * Starts `npm run simulate:worker` as its own process (one thread unless `env` says otherwise), adding it
 * to `children` so the spec can kill what is left after each test; on another host of a lab if `placement`
 * says so.
 */
export function startWorker(
  env: Record<string, string>,
  children: ChildProcessWithoutNullStreams[],
  placement: Placement = THIS_MACHINE,
): WorkerProcess {
  return startLoggedProcess(
    'simulate/cli/simulate-worker.ts',
    { SIMULATE_WORKERS: '1', LOG_LEVEL: 'info', ...env },
    children,
    placement,
  );
}

/** How many units a worker says it has computed so far (its last "N units computed" line; 0 before any). */
export function unitsComputed(worker: WorkerProcess): number {
  const last = worker.lines.findLast((line) => /units computed/.test(line));
  return last === undefined ? 0 : Number(/(\d+) units computed/.exec(last)![1]);
}
