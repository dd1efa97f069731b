import { sha256Hex, type FileRead } from './content-hash.ts';

export class ChecksumError extends Error {
  constructor(location: string, expected: string, actual: string) {
    super(`SHA-256 mismatch for ${location}: expected ${expected}, got ${actual}`);
    this.name = 'ChecksumError';
  }
}

/**
 * What a reader has returned, one entry per path (the last read wins). When the source declares a SHA-256,
 * the location itself (path "") must match it before its bytes are accepted.
 */
export class ReadLedger {
  private readonly files = new Map<string, FileRead>();

  constructor(
    private readonly location: string,
    private readonly expectedSha256?: string,
  ) {}

  record(path: string, body: Buffer): void {
    const sha256 = sha256Hex(body);
    const expected = this.expectedSha256?.toLowerCase();
    if (path === '' && expected !== undefined && sha256 !== expected) {
      throw new ChecksumError(this.location, expected, sha256);
    }
    this.files.set(path, { path, bytes: body.length, sha256 });
  }

  list(): FileRead[] {
    return [...this.files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}
