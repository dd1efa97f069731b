import type { SourceReader } from '../../ingest/source.ts';

/** A single-file source held in memory (null: the file is missing). */
export const sourceFileOf = (text: string | null): SourceReader => ({
  location: 'memory',
  read: async (path) => (path === '' && text !== null ? Buffer.from(text) : null),
  filesRead: () => [],
});
