import type { Logger } from '../lib/log.ts';
import type { Progress } from '../lib/progress.ts';
import {
  SOURCE_VERSION_SCHEMA,
  sourceVersionPayloadSchema,
  type EventEnvelope,
  type SourceVersionPayload,
} from '../schemas/envelope.ts';
import { contentHash, sha256Hex } from './connectors/content-hash.ts';
import { openReader } from './connectors/open-reader.ts';
import type { EventLog, OutgoingRecord } from '../lib/eventlog/event-log.ts';
import type { RecordSchema } from '../schemas/record-schema.ts';
import type { SourceDeclaration, SourceParser, SourceReader, SourceRecord } from './source.ts';

/** The topic of SourceVersionPayload events (without the Kafka prefix). */
export const SOURCE_VERSIONS_TOPIC = 'source-versions';
export const SOURCE_VERSION_SCHEMA_VERSION = 1;
const DEFAULT_BATCH_SIZE = 5000;

export interface IngestOptions {
  log: EventLog;
  sources: SourceDeclaration[];
  parsers: SourceParser[];
  recordSchemas: RecordSchema[];
  /** The version last published per source name; a source whose version is unchanged is not published again. */
  lastVersions: Readonly<Record<string, string>>;
  progress: Progress;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** The HTTP connector's ETag cache (e.g. `<LAKE_DIR>/cache/http`). */
  cacheDir?: string;
  /** Records per publish call. */
  batchSize?: number;
  now?: () => Date;
  /** Told of each source read and parsed successfully, before any is published (its freshness). */
  onSourceRead?: (source: SourceDeclaration, contentHash: string) => void;
}

export interface SourceIngestSummary {
  source: string;
  status: 'published' | 'unchanged';
  version: string;
  contentHash: string;
  /** Records per record schema in this version (published or not). */
  recordCounts: Record<string, number>;
  /** Reading and parsing, plus publishing when published. */
  durationMs: number;
}

export class IngestError extends Error {
  constructor(
    readonly source: string,
    readonly location: string,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(`Source "${source}" (${location}): ${detail}`, options);
    this.name = 'IngestError';
  }
}

/** A source read and parsed in phase 1, waiting to be published. */
interface ParsedSource {
  declaration: SourceDeclaration;
  parser: SourceParser;
  records: SourceRecord[];
  versionEvent: SourceVersionPayload;
  readMs: number;
}

/**
 * Reads every source, then publishes those whose version changed. Phase 1 reads and parses all sources
 * and fails the whole run on any error, so a broken source never leaves a partial run on the log. Phase 2
 * publishes each changed source's records, then its source-version event: consumers treat a version as
 * complete only once that event is there, so a publish that dies midway is never taken as a version.
 */
export async function ingestSources(options: IngestOptions): Promise<SourceIngestSummary[]> {
  const now = options.now ?? (() => new Date());
  const schemasByName = new Map(options.recordSchemas.map((schema) => [schema.name, schema]));

  const parsed: ParsedSource[] = [];
  for (const declaration of options.sources) {
    try {
      const source = await readSource(declaration, options, schemasByName, now);
      options.onSourceRead?.(declaration, source.versionEvent.contentHash);
      parsed.push(source);
    } catch (error) {
      if (error instanceof IngestError) throw error;
      throw new IngestError(declaration.name, declaration.location, describe(error), { cause: error });
    }
  }

  const summaries: SourceIngestSummary[] = [];
  for (const source of parsed) {
    const { version, contentHash: hash, recordCounts, source: name } = source.versionEvent;
    if (options.lastVersions[name] === version) {
      options.logger.info({ source: name, version }, `source ${name} unchanged at version ${version}`);
      summaries.push({
        source: name,
        status: 'unchanged',
        version,
        contentHash: hash,
        recordCounts,
        durationMs: Math.round(source.readMs),
      });
      continue;
    }
    const startedAt = performance.now();
    try {
      await publishSource(source, options, schemasByName, now);
    } catch (error) {
      throw new IngestError(
        name,
        source.declaration.location,
        `publishing version ${version} failed, so its source-version event was not published: ${describe(error)}`,
        { cause: error },
      );
    }
    const durationMs = Math.round(source.readMs + performance.now() - startedAt);
    options.logger.info(
      { source: name, version, recordCounts, durationMs },
      `source ${name} published version ${version}`,
    );
    summaries.push({
      source: name,
      status: 'published',
      version,
      contentHash: hash,
      recordCounts,
      durationMs,
    });
  }
  return summaries;
}

async function readSource(
  declaration: SourceDeclaration,
  options: IngestOptions,
  schemasByName: ReadonlyMap<string, RecordSchema>,
  now: () => Date,
): Promise<ParsedSource> {
  const startedAt = performance.now();
  const parser = options.parsers.find((candidate) => candidate.kind === declaration.kind);
  if (!parser) {
    const known = options.parsers.map((candidate) => `"${candidate.kind}"`).join(', ') || 'none';
    throw new IngestError(
      declaration.name,
      declaration.location,
      `no parser for kind "${declaration.kind}" (known kinds: ${known})`,
    );
  }
  const unregistered = parser.recordSchemas.filter((name) => !schemasByName.has(name));
  if (unregistered.length > 0) {
    throw new Error(
      `parser "${parser.kind}" emits record schemas that are not registered: ${unregistered.join(', ')}`,
    );
  }
  const reader = openReader(declaration, {
    ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    logger: options.logger,
  });
  const task = options.progress.start(`read ${declaration.name}`, { unit: 'files' });
  const records = await parser.parse(countingReads(reader, () => task.tick()));
  task.done();

  const files = reader.filesRead();
  if (files.length === 0) throw new Error('the parser read no files: is the location right?');
  const recordCounts = countRecords(records, parser);
  const hash = contentHash(files);
  const versionEvent = sourceVersionPayloadSchema.parse({
    source: declaration.name,
    kind: declaration.kind,
    location: declaration.location,
    version: sourceVersion(hash, parser, schemasByName),
    contentHash: hash,
    fetchedAt: now().toISOString(),
    recordCounts,
    files,
  });
  return { declaration, parser, records, versionEvent, readMs: performance.now() - startedAt };
}

/** Counts records per schema, refusing records a parser should never emit (a parser bug, caught before publishing). */
function countRecords(records: readonly SourceRecord[], parser: SourceParser): Record<string, number> {
  const counts = new Map(parser.recordSchemas.map((name) => [name, 0]));
  for (const [index, record] of records.entries()) {
    const counted = counts.get(record.schema);
    if (counted === undefined) {
      throw new Error(
        `parser "${parser.kind}" emitted record ${index} with schema "${record.schema}", which it does not declare`,
      );
    }
    if (typeof record.key !== 'string' || record.key === '') {
      throw new Error(
        `parser "${parser.kind}" emitted record ${index} (schema "${record.schema}") without a key`,
      );
    }
    counts.set(record.schema, counted + 1);
  }
  return Object.fromEntries(counts);
}

/**
 * A source's version: its content hash together with its kind and the versions of the record schemas its
 * parser emits, so a record schema change republishes unchanged files.
 */
function sourceVersion(
  hash: string,
  parser: SourceParser,
  schemasByName: ReadonlyMap<string, RecordSchema>,
): string {
  const schemas = parser.recordSchemas.map((name) => `${name}@${schemasByName.get(name)!.version}`).sort();
  return sha256Hex(JSON.stringify({ kind: parser.kind, schemas, contentHash: hash })).slice(0, 16);
}

async function publishSource(
  source: ParsedSource,
  options: IngestOptions,
  schemasByName: ReadonlyMap<string, RecordSchema>,
  now: () => Date,
): Promise<void> {
  const { versionEvent } = source;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const producedAt = now().toISOString();
  const envelope = (schema: string, version: number, key: string, payload: unknown): EventEnvelope => ({
    schema,
    version,
    key,
    source: versionEvent.source,
    sourceVersion: versionEvent.version,
    producedAt,
    payload,
  });

  const byTopic = new Map<string, OutgoingRecord[]>();
  for (const record of source.records) {
    const schema = schemasByName.get(record.schema)!;
    const topicRecords = byTopic.get(schema.topic) ?? [];
    topicRecords.push({
      key: record.key,
      value: envelope(schema.name, schema.version, record.key, record.payload),
    });
    byTopic.set(schema.topic, topicRecords);
  }
  const topics = new Set(source.parser.recordSchemas.map((name) => schemasByName.get(name)!.topic));
  for (const topic of [...topics, SOURCE_VERSIONS_TOPIC]) await options.log.ensureTopic(topic);

  const task = options.progress.start(`publish ${versionEvent.source}`, {
    total: source.records.length,
    unit: 'records',
  });
  for (const [topic, records] of byTopic) {
    for (let start = 0; start < records.length; start += batchSize) {
      const batch = records.slice(start, start + batchSize);
      await options.log.publish(topic, batch);
      task.tick(batch.length);
    }
  }
  task.done();

  await options.log.publish(SOURCE_VERSIONS_TOPIC, [
    {
      key: versionEvent.source,
      value: envelope(
        SOURCE_VERSION_SCHEMA,
        SOURCE_VERSION_SCHEMA_VERSION,
        versionEvent.source,
        versionEvent,
      ),
    },
  ]);
}

/** The same reader, reporting each file it returns, so a long read shows progress. */
function countingReads(reader: SourceReader, onFile: () => void): SourceReader {
  return {
    location: reader.location,
    async read(path) {
      const body = await reader.read(path);
      if (body !== null) onFile();
      return body;
    },
    filesRead: () => reader.filesRead(),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
