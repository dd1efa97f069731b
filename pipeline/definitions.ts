import { parsers } from '../ingest/parsers/index.ts';
import { loadSources, resolveSourcesFile } from '../ingest/sources-config.ts';
import type { SourceDeclaration, SourceParser } from '../ingest/source.ts';
import type { RecordSchema } from '../schemas/record-schema.ts';
import type { Config } from '../schemas/config.ts';
import { recordSchemas } from '../schemas/records/index.ts';
import { lakeTables } from '../transform/tables/index.ts';
import type { AnyLakeTable } from '../transform/tables/lake-table.ts';

/** Everything a pipeline run works from; tests pass their own (a fixture source and its tables). */
export interface PipelineDefinitions {
  parsers: SourceParser[];
  recordSchemas: RecordSchema[];
  tables: AnyLakeTable[];
  sources: SourceDeclaration[];
}

/** The service's own definitions: the registered parsers, record schemas and tables, and SOURCES_FILE's sources. */
export async function defaultDefinitions(
  config: Pick<Config, 'SOURCES_FILE'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PipelineDefinitions> {
  return {
    parsers,
    recordSchemas,
    tables: lakeTables,
    sources: await loadSources(resolveSourcesFile(config.SOURCES_FILE), env),
  };
}
