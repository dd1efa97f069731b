import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSnapshotInChildProcess } from '../../serve/snapshot/child-process-snapshot-reader.ts';
import { openSnapshot } from '../../transform/lake/snapshot-reader.ts';
import { writeProgramsSnapshot } from '../support/serve-lake-fixture.ts';

let lakeDir: string;
beforeAll(async () => {
  lakeDir = await mkdtemp(path.join(tmpdir(), 'child-reader-'));
  await writeProgramsSnapshot(lakeDir, 's1', 3, { publish: true });
});
afterAll(() => rm(lakeDir, { recursive: true, force: true }));

describe('openSnapshotInChildProcess', () => {
  it('gives the same manifest and rows as reading in this process', async () => {
    const direct = await openSnapshot(lakeDir, 's1');
    const viaChild = await openSnapshotInChildProcess(lakeDir, 's1');
    expect(viaChild.id).toBe('s1');
    expect(viaChild.manifest).toEqual(direct.manifest);
    expect(await viaChild.rows('programs')).toEqual([
      { snapshot: 's1', program: 'program-0', amountUsd: 1000 },
      { snapshot: 's1', program: 'program-1', amountUsd: 2000 },
      { snapshot: 's1', program: 'program-2', amountUsd: 3000 },
    ]);
    // A second read, after the child has gone idle and exited, starts a new one.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await viaChild.rows('programs')).toHaveLength(3);
  });

  it('rejects a table the snapshot lacks with the reader’s message, and keeps reading others', async () => {
    const reader = await openSnapshotInChildProcess(lakeDir, 's1');
    await expect(reader.rows('nope')).rejects.toThrow('snapshot s1 has no table "nope"');
    expect(await reader.rows('programs')).toHaveLength(3);
  });

  it('refuses a snapshot that does not exist before starting any process', async () => {
    await expect(openSnapshotInChildProcess(lakeDir, 's9')).rejects.toThrow();
  });
});
