import path from 'node:path';

export class SourcePathError extends Error {
  constructor(
    readonly requested: string,
    location: string,
  ) {
    super(`path "${requested}" is not inside the source location ${location}`);
    this.name = 'SourcePathError';
  }
}

/**
 * Normalises a path relative to a source location ("" is the location itself) and refuses any path that
 * would leave it: absolute paths, ".." past the root, backslashes (paths use "/" everywhere) and NUL bytes.
 */
export function normalizeSourcePath(requested: string, location: string): string {
  if (requested.includes('\\') || requested.includes('\0') || path.posix.isAbsolute(requested)) {
    throw new SourcePathError(requested, location);
  }
  const normalized = path.posix.normalize(requested === '' ? '.' : requested).replace(/\/$/, '');
  if (normalized === '..' || normalized.startsWith('../')) throw new SourcePathError(requested, location);
  return normalized === '.' ? '' : normalized;
}
