import { spawn } from 'node:child_process';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';

/**
 * `npm start` without npm: the same entry point (the TypeScript sources through tsx unless another is
 * given), with only the given variables besides PATH; its output is collected as it comes.
 */
export function startMain(
  env: Record<string, string>,
  entry: { args: string[]; cwd: string } = {
    args: ['--import', 'tsx', 'start/main.ts'],
    cwd: REPOSITORY_ROOT,
  },
) {
  const child = spawn(process.execPath, entry.args, {
    cwd: entry.cwd,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (output.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output.stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output, exited };
}

/** The URL the server says it serves on, once it has said so (its JSON log line), else undefined. */
export const servingUrl = (stdout: string): string | undefined =>
  /"msg":"serving on (http:\/\/\S+?)"/.exec(stdout)?.[1];
