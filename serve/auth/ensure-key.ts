import { isActive } from './api-key.ts';
import { addKey } from './key-commands.ts';
import { readKeyFile, writeKeyFile } from './key-file.ts';
import { withKeyFileLock } from './key-file-lock.ts';

export const LOCAL_KEY_NAME = 'local';

/**
 * A first start with no key configured (no API_KEYS, no active stored key) would leave the API unusable,
 * so one local key is created; only its hash is stored. It is the operator's own, so it may read held
 * snapshots too. Returns the new key (to print once), or null when a key was already configured.
 */
export async function ensureKey(
  file: string,
  staticKeys: readonly string[],
  now: Date = new Date(),
): Promise<{ id: string; key: string } | null> {
  if (staticKeys.length > 0) return null;
  return withKeyFileLock(file, async () => {
    const current = await readKeyFile(file);
    if (current.keys.some(isActive)) return null;
    const { file: next, key, stored } = addKey(current, LOCAL_KEY_NAME, now, { reviewer: true });
    await writeKeyFile(file, next);
    return { id: stored.id, key };
  });
}
