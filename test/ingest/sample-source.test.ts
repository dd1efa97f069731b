import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSources, SOURCE_VERSIONS_TOPIC, type IngestOptions } from '../../ingest/ingest-job.ts';
import { parsers } from '../../ingest/parsers/index.ts';
import { loadSources, resolveSourcesFile } from '../../ingest/sources-config.ts';
import type { SourceDeclaration } from '../../ingest/source.ts';
import { createProgress } from '../../lib/progress.ts';
import { recordSchemas } from '../../schemas/records/index.ts';
import { MemoryEventLog } from '../support/memory-event-log.ts';

/** The project's declared sources, ingested with the real parsers, from disk and over HTTP. */
let declared: SourceDeclaration[];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  declared = await loadSources(resolveSourcesFile('./ingest/sources.json'), {});
  const root = declared.find((source) => source.name === 'incentives')!.location;
  // A plain static server over the sample data: 200 with a body, 404 for a file it does not have.
  server = createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname));
    readFile(file).then(
      (body) => res.writeHead(200).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function ingest(log: MemoryEventLog, sources: SourceDeclaration[]) {
  const logger = pino({ level: 'silent' });
  const options: IngestOptions = {
    log,
    sources,
    parsers,
    recordSchemas,
    lastVersions: {},
    progress: createProgress({ logger, stream: { write: () => true } }),
    logger,
  };
  return ingestSources(options);
}

describe('the declared incentives source', () => {
  it('ingests the sample data: every record on its topic, counted in the source-version event', async () => {
    const log = new MemoryEventLog();

    const [summary] = await ingest(log, declared);

    expect(summary!.status).toBe('published');
    const versionEvent = log.records(SOURCE_VERSIONS_TOPIC)[0]!.value.payload as {
      recordCounts: Record<string, number>;
    };
    expect(versionEvent.recordCounts).toEqual(summary!.recordCounts);
    for (const schema of recordSchemas.filter((s) => s.name in summary!.recordCounts)) {
      const onTopic = log.records(schema.topic).filter((r) => r.value.schema === schema.name);
      expect(onTopic.length, schema.name).toBe(summary!.recordCounts[schema.name]);
    }
    expect(Object.values(summary!.recordCounts).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('has the same version and records when served over HTTP as when read from disk', async () => {
    const fromDisk = new MemoryEventLog();
    const overHttp = new MemoryEventLog();

    const [disk] = await ingest(fromDisk, [declared[0]!]);
    const [http] = await ingest(overHttp, [{ ...declared[0]!, location: baseUrl }]);

    expect(http!.version).toBe(disk!.version);
    expect(http!.recordCounts).toEqual(disk!.recordCounts);
    const payloads = (log: MemoryEventLog, topic: string) => log.records(topic).map((r) => r.value.payload);
    for (const topic of new Set(recordSchemas.map((s) => s.topic))) {
      expect(payloads(overHttp, topic)).toEqual(payloads(fromDisk, topic));
    }
  });
});
