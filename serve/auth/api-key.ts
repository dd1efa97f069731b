import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** A stored API key: only the SHA-256 of the key is kept, never the key itself. */
export const storedKeySchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  /** Hex SHA-256 of the full key string. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
  /** May read snapshots held for review over HTTP (`npm run keys -- create --reviewer`); absent: no. */
  reviewer: z.boolean().optional(),
});
export type StoredKey = z.infer<typeof storedKeySchema>;

/** The content of <LAKE_DIR>/keys.json. */
export const keyFileSchema = z.object({
  version: z.literal(1),
  keys: z.array(storedKeySchema),
});
export type KeyFile = z.infer<typeof keyFileSchema>;

/** Who made a request: the key's id (the rate-limit bucket), its name (for logs), and what it may read. */
export interface KeyIdentity {
  id: string;
  name: string;
  /** May read snapshots held for review (GET /api/v1/lake/held and their files). */
  reviewer: boolean;
}

const KEY_PREFIX = 'esk_';

/** A new key: 32 random bytes (256 bits), base64url, with a prefix so a leaked key is recognisable. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * SHA-256 suffices (no salt or slow hash): a generated key has 256 bits of entropy, so the hash cannot be
 * brute-forced, and a fast hash keeps authentication to one digest per request.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Short random id, safe to print and log; it names the key in `keys revoke` and in the rate limiter. */
export function generateKeyId(): string {
  return `key_${randomBytes(6).toString('hex')}`;
}

/** Static keys from API_KEYS get an id derived from their hash, stable across restarts but not revealing. */
export function staticKeyId(hash: string): string {
  return `static_${hash.slice(0, 12)}`;
}

export function isActive(key: StoredKey): boolean {
  return key.revokedAt === null;
}
