import {
  generateApiKey,
  generateKeyId,
  hashApiKey,
  isActive,
  type KeyFile,
  type StoredKey,
} from './api-key.ts';

/** A key operation the user asked for that cannot be done (unknown key, duplicate name). */
export class KeyCommandError extends Error {
  override name = 'KeyCommandError';
}

/** Adds a new key; returns the key itself, which exists only in this return value from now on. */
export function addKey(
  file: KeyFile,
  name: string,
  now: Date,
  { reviewer = false }: { reviewer?: boolean } = {},
): { file: KeyFile; key: string; stored: StoredKey } {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new KeyCommandError('a key needs a non-empty --name');
  if (file.keys.some((k) => isActive(k) && k.name === trimmed)) {
    throw new KeyCommandError(`an active key is already named "${trimmed}"`);
  }
  const key = generateApiKey();
  const stored: StoredKey = {
    id: generateKeyId(),
    name: trimmed,
    hash: hashApiKey(key),
    createdAt: now.toISOString(),
    revokedAt: null,
    ...(reviewer ? { reviewer } : {}),
  };
  return { file: { ...file, keys: [...file.keys, stored] }, key, stored };
}

/** Revokes one key, named by its id or by the name of an active key. */
export function revokeKey(file: KeyFile, idOrName: string, now: Date): { file: KeyFile; revoked: StoredKey } {
  const target =
    file.keys.find((k) => k.id === idOrName) ?? file.keys.find((k) => isActive(k) && k.name === idOrName);
  if (!target) throw new KeyCommandError(`no key with id or active name "${idOrName}"`);
  if (!isActive(target)) throw new KeyCommandError(`key ${target.id} is already revoked`);
  const revoked = { ...target, revokedAt: now.toISOString() };
  return { file: { ...file, keys: file.keys.map((k) => (k === target ? revoked : k)) }, revoked };
}
