import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spawnOn, THIS_MACHINE, type Placement } from './processes.ts';

const workerCli = fileURLToPath(new URL('../../simulate/cli/simulate-worker.ts', import.meta.url));

/** An `npm run simulate:worker` process a spec started, with what it logged. */
export interface WorkerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Its log lines' messages, as they come. */
  lines: string[];
  /** When each of `lines` came (Date.now()). */
  times: number[];
  /** Resolves once a message matches (at once if one already did); rejects if the worker exits first. */
  logged(match: RegExp): Promise<void>;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  stderr(): string;
}

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
  const child = spawnOn(placement, process.execPath, ['--import', 'tsx', workerCli], {
    env: { ...process.env, SIMULATE_WORKERS: '1', LOG_LEVEL: 'info', ...env },
  }) as ChildProcessWithoutNullStreams;
  children.push(child);
  const lines: string[] = [];
  const times: number[] = [];
  let output = '';
  const waiters: { match: RegExp; resolve: () => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const complete = output.split('\n');
    output = complete.pop()!;
    for (const line of complete) {
      const message = (JSON.parse(line) as { msg: string }).msg;
      lines.push(message);
      times.push(Date.now());
      for (const waiter of waiters.filter((w) => w.match.test(message))) waiter.resolve();
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logged = (match: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (lines.some((line) => match.test(line))) return resolve();
      waiters.push({ match, resolve });
      void exited.then((code) => reject(new Error(`worker exited (${code}) before ${match}: ${stderr}`)));
    });
  return { child, lines, times, logged, exited, stderr: () => stderr };
}
