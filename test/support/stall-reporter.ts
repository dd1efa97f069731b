import { execFileSync } from 'node:child_process';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * How long a run may go without a test, a hook or a file ending before it is called stalled: longer than
 * the longest test's own timeout (the Kafka workers spec's 600 s).
 */
export const STALL_MS = 11 * 60_000;

/** What is done with a stalled run: the files still running, and how long nothing ended. */
export type OnStall = (runningFiles: string[], stallMs: number) => void;

/**
 * Ends a test run that has stopped moving, naming the files still running and the processes left. Vitest's
 * own timeouts end a test that waits too long, but not one whose worker is blocked (its event loop held by
 * a synchronous call) nor a worker that never exits: a CI run once went on so until its 90 minutes were up,
 * and what it kept of its log named no file.
 */
export default class StallReporter implements Reporter {
  private readonly running = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stallMs: number = STALL_MS,
    private readonly onStall: OnStall = reportAndExit,
  ) {}

  onTestModuleStart(module: TestModule): void {
    this.running.add(module.relativeModuleId);
    this.restartClock();
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(module.relativeModuleId);
    this.restartClock();
  }

  onTestCaseResult(): void {
    this.restartClock();
  }

  onHookEnd(): void {
    this.restartClock();
  }

  onTestRunEnd(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private restartClock(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.onStall([...this.running].sort(), this.stallMs), this.stallMs);
    // A run that ends without onTestRunEnd (interrupted) is not kept alive by it.
    this.timer.unref();
  }
}

/** Prints the stalled files and every process (a blocked worker's kernel wait among them), then fails the run. */
function reportAndExit(runningFiles: string[], stallMs: number): void {
  const processes = execFileSync('ps', ['-eo', 'pid,ppid,etimes,stat,wchan:24,rss,args', '--forest'], {
    encoding: 'utf8',
  });
  console.error(
    `No test, hook or file ended for ${Math.round(stallMs / 1000)} s: the run is stopped. Still running: ` +
      `${runningFiles.join(', ') || 'no file'}.\nThe processes:\n` +
      processes
        .split('\n')
        .map((line) => line.slice(0, 220))
        .join('\n'),
  );
  process.exit(1);
}
