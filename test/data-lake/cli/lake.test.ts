import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

let lakeDir: string;
it.beforeAll(async ({ fileTempDir }) => {
  lakeDir = fileTempDir;
});

/** `npm run lake -- <args>` without npm, against an empty temporary LAKE_DIR. */
function lake(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'data-lake/cli/lake.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, LAKE_DIR: lakeDir },
  });
}

describe('npm run lake (data-lake/cli/lake.ts)', () => {
  it('answers a snapshot id that does not exist, or is not an id, with one line and exit code 1', async () => {
    await expect(lake('rollback', 'nosuch')).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'no snapshot "nosuch" in the lake (see: npm run lake -- list)\n',
    });
    await expect(lake('show', '../etc')).rejects.toMatchObject({
      code: 1,
      stderr: '"../etc" is not a snapshot id (letters, digits, "-" and "_" only)\n',
    });
  });
});
