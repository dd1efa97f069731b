import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

let lakeDir: string;
it.beforeEach(async ({ tempDir }) => {
  lakeDir = tempDir;
});

/** `npm run keys -- <args>` without npm, against a temporary LAKE_DIR. */
function keys(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'serve/cli/keys.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, LAKE_DIR: lakeDir },
  });
}

describe('npm run keys (serve/cli/keys.ts)', () => {
  it('creates a key in <LAKE_DIR>/keys.json, printing it once, and revokes it by name', async () => {
    const created = await keys('create', '--name', 'ops');
    const [announce, key] = created.stdout.trim().split('\n');
    expect(announce).toMatch(
      /^Created API key key_[0-9a-f]{12} \(name "ops"\)\. It is shown only this once:$/,
    );
    expect(key).toMatch(/^esk_[A-Za-z0-9_-]{43}$/);
    const stored = JSON.parse(await readFile(path.join(lakeDir, 'keys.json'), 'utf8'));
    expect(stored.keys).toEqual([expect.objectContaining({ name: 'ops', revokedAt: null })]);
    expect(JSON.stringify(stored)).not.toContain(key);

    const revoked = await keys('revoke', 'ops');
    expect(revoked.stdout).toMatch(/^Revoked API key key_[0-9a-f]{12} \(name "ops"\)\n$/);
  });

  it('exits non-zero with the usage on a wrong command', async () => {
    await expect(keys('rotate')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage: npm run keys -- create --name <name>'),
    });
  });
});
