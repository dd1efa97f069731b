import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPOSITORY_ROOT } from '../lib/repository-root.ts';

/** The code a snapshot was built by: the git commit when the code is a checkout, else the package version. */
export async function resolveCodeVersion(): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)('git', ['rev-parse', 'HEAD'], { cwd: REPOSITORY_ROOT });
    const commit = stdout.trim();
    if (/^[0-9a-f]{40}$/.test(commit)) return `git:${commit}`;
  } catch {
    // Not a checkout (or no git): fall back to the package version.
  }
  const pkg = JSON.parse(await readFile(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  return `package:${pkg.version}`;
}
