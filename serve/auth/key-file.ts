import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../../lib/fs/durable-file.ts';
import { keyFileSchema, type KeyFile } from './api-key.ts';

export function keyFilePath(lakeDir: string): string {
  return path.join(lakeDir, 'keys.json');
}

/** The stored keys; a missing file is an empty store, a malformed one is an error naming the file. */
export async function readKeyFile(file: string): Promise<KeyFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, keys: [] };
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON`);
  }
  const parsed = keyFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file} is not a key file: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Replaced atomically (lib/fs/durable-file.ts), so a reader (the running server) sees the old or the new
 * file, never half of one. Owner-only permissions: the hashes are not secrets, but nobody else needs them.
 */
export async function writeKeyFile(file: string, content: KeyFile): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomically(file, `${JSON.stringify(keyFileSchema.parse(content), null, 2)}\n`, {
    mode: 0o600,
  });
}
