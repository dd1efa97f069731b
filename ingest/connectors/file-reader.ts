import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SourceReader } from '../source.ts';
import { ReadLedger } from './read-ledger.ts';
import { normalizeSourcePath } from './source-path.ts';

/** Errors that mean "the source has no such file" rather than "the source is broken". */
const ABSENT = new Set(['ENOENT', 'ENOTDIR']);

/**
 * Reads a local file (path "" is the file itself) or a directory (paths relative to it). A missing file is
 * null; a path that would leave the location is refused. The check is on the path's text: a symlink inside
 * the location is followed, as the operator who put it there intended.
 */
export function createFileReader(location: string, options: { sha256?: string } = {}): SourceReader {
  const root = path.resolve(location);
  const ledger = new ReadLedger(root, options.sha256);
  return {
    location: root,
    async read(requested: string): Promise<Buffer | null> {
      const relative = normalizeSourcePath(requested, root);
      const file = relative === '' ? root : path.join(root, ...relative.split('/'));
      let body: Buffer;
      try {
        body = await readFile(file);
      } catch (error) {
        if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return null;
        throw error;
      }
      ledger.record(relative, body);
      return body;
    },
    filesRead: () => ledger.list(),
  };
}
