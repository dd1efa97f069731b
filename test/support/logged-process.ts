import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { ROOT, spawnOn, THIS_MACHINE, type Placement } from './processes.ts';

/** One of the project's commands as a child process, with the JSON log lines it wrote on stdout. */
export interface LoggedProcess {
  child: ChildProcessWithoutNullStreams;
  /** Its log lines' messages, as they come (a line that is not JSON, e.g. a command's summary, as it is). */
  lines: string[];
  /** When each of `lines` came (Date.now()). */
  times: number[];
  /** Each of `lines` as the logger wrote it: the message's fields (`msg`, and e.g. `durationMs`). */
  entries: Record<string, unknown>[];
  /** Resolves once a message matches (at once if one already did); rejects if the process exits first. */
  logged(match: RegExp): Promise<void>;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  stderr(): string;
}

/**
 * Starts a TypeScript entry point (`entry`, from the repository's root) with tsx as node itself, so the
 * child's pid is the program's and /proc/<pid> measures it, adding it to `children` so the caller can kill
 * what is left; on a host of a lab when `placement` says (test/support/deployment/netns-hosts.ts).
 */
export function startLoggedProcess(
  entry: string,
  env: Record<string, string>,
  children: ChildProcessWithoutNullStreams[],
  placement: Placement = THIS_MACHINE,
): LoggedProcess {
  const child = spawnOn(placement, process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  }) as ChildProcessWithoutNullStreams;
  children.push(child);
  const lines: string[] = [];
  const times: number[] = [];
  const entries: Record<string, unknown>[] = [];
  let output = '';
  const waiters: { match: RegExp; resolve: () => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const complete = output.split('\n');
    output = complete.pop()!;
    for (const line of complete) {
      const fields = parsedLine(line);
      const message = typeof fields.msg === 'string' ? fields.msg : line;
      lines.push(message);
      times.push(Date.now());
      entries.push(fields);
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
      void exited.then((code) => reject(new Error(`${entry} exited (${code}) before ${match}: ${stderr}`)));
    });
  return { child, lines, times, entries, logged, exited, stderr: () => stderr };
}

function parsedLine(line: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
  } catch {
    // a line of plain text
  }
  return { msg: line };
}
