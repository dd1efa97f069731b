import type { Logger } from '../lib/log.ts';
import type { Progress } from '../lib/progress.ts';
import {
  SOURCE_VERSION_SCHEMA,
  sourceVersionPayloadSchema,
  type EventEnvelope,
  type SourceVersionPayload,
} from '../schemas/envelope.ts';
import { contentHash, sha256Hex } from './connectors/content-hash.ts';
import { checkKeys, describeDuplicateKeys, type DuplicateKeys } from './duplicate-keys.ts';
import { openReader } from './connectors/open-reader.ts';
import type { EventLog, OutgoingRecord } from '../eventlog/event-log.ts';
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
  /**
   * Told of each source that cannot be read, which is then left out while the others are published. Without
   * it, the first such source fails the whole ingest before anything is published.
   */
  onRejected?: (error: IngestError) => void;
}

export interface SourceIngestSummary {
  source: string;
  status: 'published' | 'unchanged';
  version: string;
  contentHash: string;
  /** Records per record schema in this version (published or not). */
  recordCounts: Record<string, number>;
  /** Keys the version repeated with identical records, each collapsed to one record. */
  collapsed: DuplicateKeys[];
  /** Reading and parsing, plus publishing when published. */
  durationMs: number;
}

/** A source that cannot be read, or whose version cannot be staged completely: nothing of it is published. */
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

/** The event log refused a source version's records: the log's problem, not the source's. */
export class SourcePublishError extends Error {
  override name = 'SourcePublishError';
}

/** A source version in which one key names different records: staging, one record per key, would lose some. */
export class DuplicateKeysError extends IngestError {
  constructor(
    source: string,
    location: string,
    readonly version: string,
    readonly duplicates: DuplicateKeys[],
  ) {
    const total = duplicates.reduce((sum, group) => sum + group.keys, 0);
    const groups = duplicates.map((group) => {
      const differ = group.differingFields ?? [];
      return `${describeDuplicateKeys(group, location)} (the records differ in: ${differ.join(', ')})`;
    });
    super(
      source,
      location,
      `version ${version} cannot be staged completely: ${total === 1 ? '1 key names' : `${total} keys each name`} ` +
        `more than one record (${groups.join('; ')}). Staging keeps one record per key, so this export is ` +
        'refused rather than staged with records missing; fix it at the source (a record exported twice?).',
    );
    this.name = 'DuplicateKeysError';
  }
}

/** A source read and parsed in phase 1, waiting to be published. */
interface ParsedSource {
  declaration: SourceDeclaration;
  parser: SourceParser;
  records: SourceRecord[];
  versionEvent: SourceVersionPayload;
  collapsed: DuplicateKeys[];
  readMs: number;
}

/**
 * Reads every source, then publishes those whose version changed. Phase 1 reads and parses all sources;
 * unless `onRejected` is given, a source that cannot be read fails the whole run there, so a broken
 * source never leaves a partial run on the log. Phase 2 publishes each changed source's records, then its
 * source-version event: consumers treat a version as complete only once that event is there, so a publish
 * that dies midway is never taken as a version.
 */
export async function ingestSources(options: IngestOptions): Promise<SourceIngestSummary[]> {
  const now = options.now ?? (() => new Date());
  const schemasByName = new Map(options.recordSchemas.map((schema) => [schema.name, schema]));

  const parsed: ParsedSource[] = [];
  const summaries: SourceIngestSummary[] = [];
  for (const declaration of options.sources) {
    let source: ParsedSource;
    try {
      source = await readSource(declaration, options, schemasByName, now);
    } catch (thrown) {
      const error =
        thrown instanceof IngestError
          ? thrown
          : new IngestError(declaration.name, declaration.location, describe(thrown), { cause: thrown });
      if (options.onRejected === undefined) throw error;
      options.onRejected(error);
      continue;
    }
    options.onSourceRead?.(declaration, source.versionEvent.contentHash);
    for (const group of source.collapsed) {
      options.logger.warn(
        { source: declaration.name, schema: group.schema, keys: group.keys, examples: group.examples },
        `source ${declaration.name} repeats identical records under ` +
          `${describeDuplicateKeys(group, declaration.location)}; each is staged once`,
      );
    }
    parsed.push(source);
  }

  for (const source of parsed) {
    const { version, contentHash: hash, recordCounts, source: name } = source.versionEvent;
    const summary = { source: name, version, contentHash: hash, recordCounts, collapsed: source.collapsed };
    if (options.lastVersions[name] === version) {
      options.logger.info({ source: name, version }, `source ${name} unchanged at version ${version}`);
      summaries.push({ ...summary, status: 'unchanged', durationMs: Math.round(source.readMs) });
      continue;
    }
    const startedAt = performance.now();
    try {
      await publishSource(source, options, schemasByName, now);
    } catch (error) {
      throw new SourcePublishError(
        `Source "${name}" (${source.declaration.location}): publishing version ${version} failed, so its ` +
          `source-version event was not published: ${describe(error)}`,
        { cause: error },
      );
    }
    const durationMs = Math.round(source.readMs + performance.now() - startedAt);
    options.logger.info(
      { source: name, version, recordCounts, durationMs },
      `source ${name} published version ${version}`,
    );
    summaries.push({ ...summary, status: 'published', durationMs });
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
  const hash = contentHash(files);
  const version = sourceVersion(hash, parser, schemasByName);
  countRecords(records, parser);
  const keys = checkKeys(records);
  if (keys.conflicting.length > 0) {
    throw new DuplicateKeysError(declaration.name, declaration.location, version, keys.conflicting);
  }
  const versionEvent = sourceVersionPayloadSchema.parse({
    source: declaration.name,
    kind: declaration.kind,
    location: declaration.location,
    version,
    contentHash: hash,
    fetchedAt: now().toISOString(),
    recordCounts: countRecords(keys.records, parser),
    files,
  });
  return {
    declaration,
    parser,
    records: keys.records,
    versionEvent,
    collapsed: keys.collapsed,
    readMs: performance.now() - startedAt,
  };
}

/**
 * Counts records per schema, refusing records a parser should never emit (a parser bug, caught before
 * publishing, and before any check of the records' keys).
 */
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
