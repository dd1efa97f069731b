import { withLock } from '../../lib/fs/lock-file.ts';

/**
 * Runs a read-modify-write of the key file while holding `<file>.lock` (the project's lock protocol,
 * lib/fs/lock-file.ts), so two `npm run keys` (or a first start and a `keys create`) cannot both read the
 * old file and drop each other's change.
 */
export async function withKeyFileLock<T>(
  file: string,
  action: () => Promise<T>,
  { waitMs = 5000 }: { waitMs?: number } = {},
): Promise<T> {
  return withLock(`${file}.lock`, { purpose: 'key command', waitMs, pollMs: 25 }, action);
}
