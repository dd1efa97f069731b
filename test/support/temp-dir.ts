import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test as base } from 'vitest';

/** A new directory under the system's temporary one, named after the spec so that a leftover says where it is from. */
async function makeTempDir(
  specFile: string,
  onCleanup: (cleanup: () => Promise<void>) => void,
): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `${path.basename(specFile).replace(/\.test\.ts$/, '')}-`));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Temporary directories that vitest makes for the tests which ask for them and removes after: `tempDir` and
 * `lakeDir` (one each per test; `lakeDir` for a LAKE_DIR), `fileTempDir` (one for the whole spec file).
 */
export const test = base
  .extend('tempDir', ({ task }, { onCleanup }) => makeTempDir(task.file.name, onCleanup))
  .extend('lakeDir', ({ task }, { onCleanup }) => makeTempDir(task.file.name, onCleanup))
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('fileTempDir', { scope: 'file' }, ({}, { onCleanup }) =>
    makeTempDir(expect.getState().testPath ?? 'spec', onCleanup),
  );
export const it = test;
