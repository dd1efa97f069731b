import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parsers } from '../../ingest/parsers/index.ts';
import { loadSources } from '../../ingest/sources-config.ts';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';

/**
 * The payloads of one of the project's own default sources (ingest/sources.json), parsed by its registered
 * parser exactly as ingest would, for specs that need the shipped figures without running the pipeline.
 */
export async function defaultSourceRecords<T>(sourceName: string): Promise<T[]> {
  const declared = await loadSources(path.join(REPOSITORY_ROOT, 'ingest/sources.json'), {});
  const source = declared.find((s) => s.name === sourceName);
  if (!source) throw new Error(`no source ${sourceName} in ingest/sources.json`);
  const parser = parsers.find((p) => p.kind === source.kind);
  if (!parser) throw new Error(`no parser of kind ${source.kind}`);
  const file = source.location;
  const records = await parser.parse({
    location: file,
    read: async () => readFile(file),
    filesRead: () => [],
  });
  return records.map((r) => r.payload as T);
}
