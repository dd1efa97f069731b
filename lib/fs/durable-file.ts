import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { directoryEntries } from './directory-entries.ts';
import path from 'node:path';

/** Flushes a file's or a directory's contents (a directory's: its entries, so a rename survives power loss). */
export async function fsyncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes every file below a directory, then the directories themselves, deepest first. */
export async function fsyncTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await fsyncTree(child);
    else if (entry.isFile()) await fsyncPath(child);
  }
  await fsyncPath(dir);
}

/** Temporary files of atomic writes carry this marker, so a crashed writer's leftovers can be found. */
export const TEMP_MARKER = '.tmp-';

/**
 * Replaces a file so that a reader sees either the old or the new content, never a mix, even if the
 * process dies: write a temporary file beside it, fsync, rename over the target, fsync the directory.
 * The one atomic write of the project (the lake, the event log, the key file, metrics textfiles).
 */
export async function writeFileAtomically(
  target: string,
  data: string | Uint8Array | ((handle: FileHandle) => Promise<void>),
  { mode }: { mode?: number } = {},
): Promise<void> {
  const temp = `${target}${TEMP_MARKER}${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const handle = await open(temp, 'w', mode);
    try {
      // A function writes the content in pieces (a file too large to hold whole).
      if (typeof data === 'function') await data(handle);
      else await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await fsyncPath(path.dirname(target));
}

/**
 * Deletes temporary files that crashed atomic writes left in a directory (not recursive); with `target`,
 * only those of that one file (in a directory other components also write to).
 */
export async function removeTempFiles(dir: string, target?: string): Promise<string[]> {
  const names = await directoryEntries(dir);
  const marker = target === undefined ? TEMP_MARKER : `${target}${TEMP_MARKER}`;
  const leftovers = names.filter((name) =>
    target === undefined ? name.includes(marker) : name.startsWith(marker),
  );
  await Promise.all(leftovers.map((name) => rm(path.join(dir, name), { force: true, recursive: true })));
  return leftovers;
}
