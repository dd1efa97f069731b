import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export interface KeyFileLockOptions {
  /** How long to wait for another writer before giving up. */
  waitMs?: number;
  /** A lock older than this was left by a crashed writer and is taken over. */
  staleMs?: number;
}

/**
 * Runs a read-modify-write of the key file while holding `<file>.lock`, so two `npm run keys` (or a
 * first start and a `keys create`) cannot both read the old file and drop each other's change.
 */
export async function withKeyFileLock<T>(
  file: string,
  action: () => Promise<T>,
  { waitMs = 5000, staleMs = 30_000 }: KeyFileLockOptions = {},
): Promise<T> {
  const lock = `${file}.lock`;
  await mkdir(path.dirname(file), { recursive: true });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > staleMs) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`${lock} is held by another key command; retry, or remove it if none is running`, {
          cause: err,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await action();
  } finally {
    await rm(lock, { force: true });
  }
}
