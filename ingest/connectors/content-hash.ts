import { createHash } from 'node:crypto';

export interface FileRead {
  path: string;
  bytes: number;
  sha256: string;
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The content version of a source: SHA-256 over its files' (path, sha256) pairs in path order, so the same
 * files give the same hash whatever order a parser read them in.
 */
export function contentHash(files: readonly FileRead[]): string {
  const lines = files
    .map((file) => `${file.path}\t${file.sha256}\n`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256Hex(lines.join(''));
}
