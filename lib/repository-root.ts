import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory of the nearest package.json above `start`: the repository root, whether the code runs
 * from its TypeScript sources or from the compiled copy in dist/ (one level deeper).
 */
export function findRepositoryRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

/** The repository root: relative paths of the configuration resolve against it, so any cwd works. */
export const REPOSITORY_ROOT = findRepositoryRoot(path.dirname(fileURLToPath(import.meta.url)));
