import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { z } from 'zod';
import { contentHash, sha256Hex } from '../../ingest/connectors/content-hash.ts';
import type { OutgoingRecord } from '../../eventlog/event-log.ts';
import {
  DuplicateKeysError,
  ingestSources,
  IngestError,
  SOURCE_VERSIONS_TOPIC,
  type IngestOptions,
} from '../../ingest/ingest-job.ts';
import type { SourceDeclaration, SourceParser, SourceRecord } from '../../ingest/source.ts';
import type { RecordSchema } from '../../schemas/record-schema.ts';
import { createProgress } from '../../lib/progress.ts';
import { sourceVersionPayloadSchema } from '../../schemas/envelope.ts';
import { MemoryEventLog } from '../support/memory-event-log.ts';

/** A tiny source layout: programs.json (an array of programs) and authorities.json (an object by id). */
const programSchema: RecordSchema = {
  name: 'test-program',
  version: 2,
  schema: z.object({ id: z.string(), name: z.string() }),
  topic: 'test.programs',
};
const authoritySchema: RecordSchema = {
  name: 'test-authority',
  version: 1,
  schema: z.object({ id: z.string(), type: z.string() }),
  topic: 'test.authorities',
};

const testParser: SourceParser = {
  kind: 'test-layout',
  recordSchemas: ['test-program', 'test-authority'],
  async parse(reader) {
    const programs = JSON.parse((await reader.read('programs.json'))!.toString()) as { id: string }[];
    const authorities = (await reader.read('authorities.json')) ?? Buffer.from('{}');
    const records: SourceRecord[] = programs.map((p) => ({ schema: 'test-program', key: p.id, payload: p }));
    for (const [id, authority] of Object.entries(
      JSON.parse(authorities.toString()) as Record<string, object>,
    )) {
      records.push({ schema: 'test-authority', key: id, payload: { id, ...authority } });
    }
    return records;
  },
};

const programs = [
  { id: 'co-heat-pump', name: 'Heat pump rebate' },
  { id: 'co-ev-charger', name: 'EV charger credit' },
  { id: 'co-weatherization', name: 'Weatherization assistance' },
];
const authorities = { 'xcel-co': { type: 'utility' } };

/** A log that remembers the size of every publish call, to see the batching. */
class RecordingLog extends MemoryEventLog {
  readonly calls: { topic: string; size: number }[] = [];
  override async publish(topic: string, records: OutgoingRecord[]): Promise<void> {
    this.calls.push({ topic, size: records.length });
    await super.publish(topic, records);
  }
}

let dir: string;
let log: RecordingLog;
const fetchedAt = new Date('2026-03-01T09:30:00.000Z');

it.beforeEach(async ({ tempDir }) => {
  dir = tempDir;
  log = new RecordingLog();
});

async function writeSource(name: string, files: Record<string, string>): Promise<SourceDeclaration> {
  const location = path.join(dir, name);
  await mkdir(location, { recursive: true });
  for (const [file, content] of Object.entries(files)) await writeFile(path.join(location, file), content);
  return { name, kind: 'test-layout', location };
}

function options(sources: SourceDeclaration[], overrides: Partial<IngestOptions> = {}): IngestOptions {
  const logger = pino({ level: 'silent' });
  return {
    log,
    sources,
    parsers: [testParser],
    recordSchemas: [programSchema, authoritySchema],
    lastVersions: {},
    progress: createProgress({ logger, stream: { write: () => true } }),
    logger,
    now: () => fetchedAt,
    ...overrides,
  };
}

const colorado = () =>
  writeSource('colorado', {
    'programs.json': JSON.stringify(programs),
    'authorities.json': JSON.stringify(authorities),
  });

describe('ingesting a new source version', () => {
  it('publishes every record to its schema’s topic, then the source-version event', async () => {
    const source = await colorado();

    const [summary] = await ingestSources(options([source]));

    const files = [
      {
        path: 'authorities.json',
        bytes: JSON.stringify(authorities).length,
        sha256: sha256Hex(JSON.stringify(authorities)),
      },
      {
        path: 'programs.json',
        bytes: JSON.stringify(programs).length,
        sha256: sha256Hex(JSON.stringify(programs)),
      },
    ];
    expect(summary).toEqual({
      source: 'colorado',
      status: 'published',
      version: expect.stringMatching(/^[0-9a-f]{16}$/),
      contentHash: contentHash(files),
      recordCounts: { 'test-program': 3, 'test-authority': 1 },
      collapsed: [],
      durationMs: expect.any(Number),
    });
    const version = summary!.version;
    const envelope = (schema: string, schemaVersion: number, key: string, payload: unknown) => ({
      key,
      value: {
        schema,
        version: schemaVersion,
        key,
        source: 'colorado',
        sourceVersion: version,
        producedAt: '2026-03-01T09:30:00.000Z',
        payload,
      },
    });
    expect(log.records('test.programs')).toEqual(programs.map((p) => envelope('test-program', 2, p.id, p)));
    expect(log.records('test.authorities')).toEqual([
      envelope('test-authority', 1, 'xcel-co', { id: 'xcel-co', type: 'utility' }),
    ]);
    expect(log.records(SOURCE_VERSIONS_TOPIC)).toEqual([
      envelope('source-version', 1, 'colorado', {
        source: 'colorado',
        kind: 'test-layout',
        location: source.location,
        version,
        contentHash: contentHash(files),
        fetchedAt: '2026-03-01T09:30:00.000Z',
        recordCounts: { 'test-program': 3, 'test-authority': 1 },
        files,
      }),
    ]);
    expect(
      sourceVersionPayloadSchema.safeParse(log.records(SOURCE_VERSIONS_TOPIC)[0]!.value.payload).success,
    ).toBe(true);
    // The version event comes last: a consumer that sees it has every record before it.
    expect(log.calls.at(-1)).toEqual({ topic: SOURCE_VERSIONS_TOPIC, size: 1 });
  });

  it('stages a record repeated identically once, counting it once and warning with its key', async () => {
    const source = await writeSource('colorado', {
      'programs.json': JSON.stringify([...programs, programs[1]]),
      'authorities.json': JSON.stringify(authorities),
    });
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });

    const [summary] = await ingestSources(options([source], { logger }));

    expect(summary!.recordCounts).toEqual({ 'test-program': 3, 'test-authority': 1 });
    expect(summary!.collapsed).toEqual([{ schema: 'test-program', keys: 1, examples: ['co-ev-charger'] }]);
    expect(log.records('test.programs').map((r) => r.key)).toEqual(programs.map((p) => p.id));
    expect(warnings).toEqual([
      `source colorado repeats identical records under 1 key of test-program in ${source.location}: ` +
        'co-ev-charger; each is staged once',
    ]);
  });

  it('publishes in batches of the configured size', async () => {
    const source = await colorado();

    await ingestSources(options([source], { batchSize: 2 }));

    expect(log.calls).toEqual([
      { topic: 'test.programs', size: 2 },
      { topic: 'test.programs', size: 1 },
      { topic: 'test.authorities', size: 1 },
      { topic: SOURCE_VERSIONS_TOPIC, size: 1 },
    ]);
  });

  it('creates a topic for every declared schema, and counts zero for a schema with no records', async () => {
    const source = await writeSource('empty-authorities', { 'programs.json': JSON.stringify(programs) });

    const [summary] = await ingestSources(options([source]));

    expect(summary!.recordCounts).toEqual({ 'test-program': 3, 'test-authority': 0 });
    expect(log.topicNames()).toEqual([SOURCE_VERSIONS_TOPIC, 'test.authorities', 'test.programs']);
  });
});

describe('ingesting an unchanged source', () => {
  it('publishes nothing when the version equals the last one published', async () => {
    const source = await colorado();
    const [first] = await ingestSources(options([source]));
    const published = log.calls.length;

    const [second] = await ingestSources(options([source], { lastVersions: { colorado: first!.version } }));

    expect(second).toEqual({ ...first, status: 'unchanged', durationMs: expect.any(Number) });
    expect(log.calls).toHaveLength(published);
  });

  it('publishes again when a file changed', async () => {
    const source = await colorado();
    const [first] = await ingestSources(options([source]));
    await writeFile(path.join(source.location, 'programs.json'), JSON.stringify(programs.slice(0, 2)));

    const [second] = await ingestSources(options([source], { lastVersions: { colorado: first!.version } }));

    expect(second!.status).toBe('published');
    expect(second!.version).not.toBe(first!.version);
    expect(second!.recordCounts).toEqual({ 'test-program': 2, 'test-authority': 1 });
  });

  it('publishes again when a record schema version changed, even with the same files', async () => {
    const source = await colorado();
    const [first] = await ingestSources(options([source]));

    const [second] = await ingestSources(
      options([source], {
        lastVersions: { colorado: first!.version },
        recordSchemas: [{ ...programSchema, version: 3 }, authoritySchema],
      }),
    );

    expect(second!.status).toBe('published');
    expect(second!.contentHash).toBe(first!.contentHash);
    expect(second!.version).not.toBe(first!.version);
  });
});

describe('a run with a broken source', () => {
  it('fails naming the source and location, and publishes nothing for any source', async () => {
    const good = await colorado();
    const broken = await writeSource('kentucky', { 'programs.json': '[{"id": "ky-1",' });

    const error = await ingestSources(options([good, broken])).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(IngestError);
    expect((error as IngestError).source).toBe('kentucky');
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Source "kentucky" \\(${broken.location.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\): .*JSON`,
      ),
    );
    expect(log.calls).toEqual([]);
    expect(log.topicNames()).toEqual([]);
  });

  it('fails when no parser knows the source’s kind', async () => {
    const source = { ...(await colorado()), kind: 'csv-v2' };

    await expect(ingestSources(options([source]))).rejects.toThrow(
      `Source "colorado" (${source.location}): no parser for kind "csv-v2" (known kinds: "test-layout")`,
    );
    expect(log.calls).toEqual([]);
  });

  it('fails when the location holds none of the files', async () => {
    const missing: SourceDeclaration = {
      name: 'texas',
      kind: 'test-layout',
      location: path.join(dir, 'nowhere'),
    };
    const readsOptionalOnly: SourceParser = {
      ...testParser,
      parse: async (reader) => (await reader.read('a.json'), []),
    };

    await expect(ingestSources(options([missing], { parsers: [readsOptionalOnly] }))).rejects.toThrow(
      `Source "texas" (${missing.location}): the parser read no files: is the location right?`,
    );
  });

  it('fails before publishing when the parser emits a record of a schema it does not declare', async () => {
    const source = await colorado();
    const buggy: SourceParser = {
      ...testParser,
      parse: async (reader) => [
        ...(await testParser.parse(reader)),
        { schema: 'test-utility', key: 'u1', payload: {} },
      ],
    };

    await expect(ingestSources(options([source], { parsers: [buggy] }))).rejects.toThrow(
      'parser "test-layout" emitted record 4 with schema "test-utility", which it does not declare',
    );
    expect(log.calls).toEqual([]);
  });

  it('fails before publishing when the parser emits a record without a key', async () => {
    const source = await colorado();
    const buggy: SourceParser = {
      ...testParser,
      parse: async (reader) => (await testParser.parse(reader)).map((record) => ({ ...record, key: '' })),
    };

    await expect(ingestSources(options([source], { parsers: [buggy] }))).rejects.toThrow(
      'parser "test-layout" emitted record 0 (schema "test-program") without a key',
    );
  });

  it('fails when the parser emits a record schema that is not registered', async () => {
    const source = await colorado();

    await expect(ingestSources(options([source], { recordSchemas: [programSchema] }))).rejects.toThrow(
      'parser "test-layout" emits record schemas that are not registered: test-authority',
    );
  });

  it('refuses a version in which one key names two records, naming the keys, and publishes nothing', async () => {
    const twice = [...programs, { ...programs[0]!, name: 'Heat pump rebate (2027 rates)' }];
    const source = await writeSource('colorado', {
      'programs.json': JSON.stringify(twice),
      'authorities.json': JSON.stringify(authorities),
    });

    const error = await ingestSources(options([source])).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DuplicateKeysError);
    expect(error).toBeInstanceOf(IngestError);
    expect((error as DuplicateKeysError).version).toMatch(/^[0-9a-f]{16}$/);
    expect((error as Error).message).toBe(
      `Source "colorado" (${source.location}): version ${(error as DuplicateKeysError).version} cannot be ` +
        'staged completely: 1 key names more than one record (1 key of test-program in ' +
        `${source.location}: co-heat-pump (the records differ in: name)). Staging keeps one record per key, ` +
        'so this export is refused rather than staged with records missing; fix it at the source (a record ' +
        'exported twice?).',
    );
    expect(log.calls).toEqual([]);
  });

  it('with onRejected, publishes the sources it can read and reports the others', async () => {
    const good = await colorado();
    const broken = await writeSource('kentucky', { 'programs.json': '[{"id": "ky-1",' });
    const rejected: IngestError[] = [];

    const summaries = await ingestSources(options([broken, good], { onRejected: (e) => rejected.push(e) }));

    expect(summaries.map((s) => [s.source, s.status])).toEqual([['colorado', 'published']]);
    expect(rejected.map((e) => e.source)).toEqual(['kentucky']);
    expect(log.records(SOURCE_VERSIONS_TOPIC).map((r) => r.key)).toEqual(['colorado']);
  });

  it('reports a publish failure without publishing the source-version event', async () => {
    const source = await colorado();
    class FailingLog extends RecordingLog {
      override async publish(topic: string, records: OutgoingRecord[]): Promise<void> {
        if (topic === 'test.authorities') throw new Error('broker unavailable');
        await super.publish(topic, records);
      }
    }
    log = new FailingLog();

    const error = await ingestSources(options([source])).catch((e: unknown) => e);

    expect((error as Error).message).toMatch(
      /^Source "colorado" \(.*\): publishing version [0-9a-f]{16} failed, so its source-version event was not published: broker unavailable$/,
    );
    expect(log.records(SOURCE_VERSIONS_TOPIC)).toEqual([]);
  });
});
