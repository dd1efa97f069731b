import { readdir } from 'node:fs/promises';

/** The names in a directory; none when it does not exist (yet). */
export async function directoryEntries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
