import { readFile } from 'node:fs/promises';
import { assertSnapshotId, lakePaths } from './lake-paths.ts';
import { writeFileAtomically } from '../lib/fs/durable-file.ts';

/** The id of the published snapshot, or null when nothing has been published yet. */
export async function readCurrent(lakeDir: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(lakePaths(lakeDir).current, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return assertSnapshotId(text.trim());
}

/** Publishes a snapshot: CURRENT is replaced atomically, so readers see the old id or the new one. */
export async function writeCurrent(lakeDir: string, id: string): Promise<void> {
  await writeFileAtomically(lakePaths(lakeDir).current, `${assertSnapshotId(id)}\n`);
}
