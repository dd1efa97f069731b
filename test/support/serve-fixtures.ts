import { z } from 'zod';
import { pino } from 'pino';
import { loadConfig } from '../../lib/config.ts';
import type { Config } from '../../schemas/config.ts';
import type { Manifest } from '../../schemas/lake.ts';
import type { RouteGroup } from '../../serve/route-group.ts';
import { compressBody, type Compression, type Compressor } from '../../serve/http/body-encoding.ts';
import type { SnapshotSource } from '../../serve/snapshot/snapshot-holder.ts';
import { readTable, type SnapshotReader } from '../../data-lake/snapshot-reader.ts';
import { tableRef, type RowOf } from '../../data-lake/tables/table-ref.ts';
import { whole } from '../../data-lake/tables/table-contract.ts';

export const silentLogger = () => pino({ level: 'silent' });

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ LAKE_DIR: '/nonexistent-lake', AS_OF_DATE: '2026-11-21', ...env });
}

/** A row of the fixture `programs` table; every row carries the id of the snapshot it was written to. */
export const PROGRAMS = tableRef(
  'programs',
  z.object({ snapshot: z.string(), program: z.string(), amountUsd: z.number() }),
  whole(['program'], 1),
);
export type ProgramRow = RowOf<typeof PROGRAMS>;
/** A second fixture table, of counties (any row). */
export const COUNTIES = tableRef('counties', z.record(z.string(), z.unknown()), whole([], 1));

export function manifestFor(id: string, tables: Record<string, unknown[]>, createdAt: string): Manifest {
  return {
    id,
    createdAt,
    parent: null,
    fingerprint: `fp-${id}`,
    codeVersion: 'test',
    tables: Object.fromEntries(
      Object.entries(tables).map(([name, rows]) => [
        name,
        {
          file: `${name}.parquet`,
          rows: rows.length,
          sha256: '0'.repeat(64),
          schemaVersion: 1,
          description: `fixture ${name}`,
          inputs: { records: [], tables: [] },
        },
      ]),
    ),
    sources: {},
    audit: [],
  };
}

export function programRows(snapshot: string, count = 3): ProgramRow[] {
  return Array.from({ length: count }, (_, i) => ({
    snapshot,
    program: `program-${i}`,
    amountUsd: 1000 * (i + 1),
  }));
}

export function memoryReader(
  id: string,
  tables: Record<string, unknown[]> = { programs: programRows(id) },
  createdAt = '2026-11-21T12:00:00.000Z',
): SnapshotReader {
  return {
    id,
    dir: `/memory/${id}`,
    manifest: manifestFor(id, tables, createdAt),
    rows: async <T>(table: string) => {
      const rows = tables[table];
      if (!rows) throw new Error(`no table ${table}`);
      return rows as T[];
    },
    columns: () => Promise.reject(new Error('a memory snapshot has no Parquet files')),
    writeFloat64File: () => Promise.reject(new Error('a memory snapshot has no SQL tables')),
  };
}

/** Snapshots held in memory; `publish` moves CURRENT. */
export class MemorySnapshotSource implements SnapshotSource {
  private readonly readers = new Map<string, SnapshotReader>();
  private current: string | null = null;
  opened = 0;

  publish(reader: SnapshotReader): void {
    this.readers.set(reader.id, reader);
    this.current = reader.id;
  }

  /** Points CURRENT at an id whose snapshot cannot be opened. */
  publishBroken(id: string): void {
    this.current = id;
  }

  async currentId(): Promise<string | null> {
    return this.current;
  }

  async open(id: string): Promise<SnapshotReader> {
    this.opened++;
    const reader = this.readers.get(id);
    if (!reader) throw new Error(`snapshot ${id} is unreadable`);
    return reader;
  }
}

export interface ProgramsData {
  programs: ProgramRow[];
}

const programsResponse = z.object({
  snapshot: z.string(),
  asOfDate: z.string(),
  programs: z.array(z.object({ snapshot: z.string(), program: z.string(), amountUsd: z.number() })),
});

/**
 * A fixture route group: GET /v1/programs (filtered by a validated query), POST /v1/estimate (a validated
 * nested body), and GET /v1/broken (throws an internal error).
 */
export function programsModule(options: { handlerDelayMs?: number } = {}): RouteGroup<ProgramsData> {
  return {
    loader: {
      name: 'programs',
      tables: [PROGRAMS],
      load: async (snapshot) => ({ programs: await readTable(snapshot, PROGRAMS) }),
    },
    register(app, ctx) {
      app.get(
        '/v1/programs',
        {
          schema: {
            querystring: z.object({ minAmount: z.coerce.number().int().nonnegative().default(0) }),
            response: { 200: programsResponse },
          },
        },
        async (request) => {
          const data = ctx.data(request);
          // Reading the data before and after a pause shows a request keeps its snapshot across a swap.
          if (options.handlerDelayMs) await new Promise((r) => setTimeout(r, options.handlerDelayMs));
          const again = ctx.data(request);
          if (again !== data) throw new Error('request saw two snapshots');
          return {
            snapshot: data.programs[0]?.snapshot ?? '',
            asOfDate: ctx.asOfDate(request),
            programs: data.programs.filter((p) => p.amountUsd >= request.query.minAmount),
          };
        },
      );
      app.post(
        '/v1/estimate',
        {
          schema: {
            body: z.object({
              household: z.object({ income: z.number().nonnegative(), zip: z.string().regex(/^\d{5}$/) }),
            }),
            response: { 200: z.object({ total: z.number() }) },
          },
        },
        async (request) => ({
          total: ctx.data(request).programs.reduce((sum, p) => sum + p.amountUsd, 0),
        }),
      );
      app.get('/v1/broken', async () => {
        throw new Error('database password is hunter2');
      });
    },
  };
}

/** compressBody, counting its calls per coding (a spec sees whether a kept answer was compressed again). */
export function countingCompressor(): { compress: Compressor; calls: Compression[] } {
  const calls: Compression[] = [];
  const compress: Compressor = (body, encoding) => {
    calls.push(encoding);
    return compressBody(body, encoding);
  };
  return { compress, calls };
}
