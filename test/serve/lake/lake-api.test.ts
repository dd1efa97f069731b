import { localLake } from '../../../data-lake/lake.ts';
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { asyncBufferFromUrl, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { beforeAll, describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { z } from 'zod';
import { snapshotDir } from '../../../data-lake/lake-paths.ts';
import { openSnapshot } from '../../../data-lake/snapshot-reader.ts';
import { readManifest } from '../../../data-lake/manifest-file.ts';
import { quoteLiteral } from '../../../data-lake/sql-quote.ts';
import { createLakeApi } from '../../../serve/lake/lake-api.ts';
import {
  lakeServerForSpecs,
  programsTable,
  writeTablesSnapshot,
  type FixtureTable,
} from '../../support/serve-lake-fixture.ts';

const KEY = 'lake-over-http-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };

/** Deterministic pseudo-random numbers (mulberry32), so the fixture's bytes are the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A small table with every column type the lake writes, JSON and nulls included. */
const households = (): FixtureTable => ({
  name: 'households',
  row: z.object({
    household_id: z.number().int(),
    zip: z.string(),
    heating_fuel: z.enum(['natural_gas', 'electricity', 'fuel_oil']),
    income_usd: z.number(),
    owner: z.boolean(),
    upgrades: z.array(z.string()),
    county_fips: z.string().nullable(),
  }),
  rows: [
    {
      household_id: 1,
      zip: '02903',
      heating_fuel: 'natural_gas',
      income_usd: 61250.5,
      owner: true,
      upgrades: ['heat_pump', 'weatherization'],
      county_fips: '44007',
    },
    {
      household_id: 2,
      zip: '02116',
      heating_fuel: 'fuel_oil',
      income_usd: 48000,
      owner: false,
      upgrades: [],
      county_fips: null,
    },
    {
      household_id: 3,
      zip: '80202',
      heating_fuel: 'electricity',
      income_usd: 120500.25,
      owner: true,
      upgrades: ['heat_pump_water_heater'],
      county_fips: '08031',
    },
  ],
});

/** A table of some megabytes of hard-to-compress values: large enough for range reads and slow downloads. */
const meterReadings = (rows: number, seed: number): FixtureTable => {
  const next = random(seed);
  return {
    name: 'meter_readings',
    row: z.object({ reading_id: z.number().int(), kwh: z.number(), meter: z.string() }),
    rows: Array.from({ length: rows }, (_, i) => ({
      reading_id: i,
      kwh: Math.round(next() * 1e9) / 1e3,
      meter: `m-${Math.floor(next() * 2 ** 52).toString(36)}-${Math.floor(next() * 2 ** 52).toString(36)}`,
    })),
  };
};

const SNAPSHOT = 'lake-http-a';
const server = lakeServerForSpecs(SNAPSHOT, {
  tables: () => [households(), meterReadings(60_000, 7)],
  routeGroups: () => [createLakeApi()],
  key: KEY,
});

const fileOf = (table: string, id = SNAPSHOT) =>
  path.join(snapshotDir(server().lakeDir, id), `${table}.parquet`);
const etagOf = async (table: string, id = SNAPSHOT) => {
  const manifest = await readManifest(snapshotDir(server().lakeDir, id));
  return `"${id}.${manifest.tables[table]!.sha256.slice(0, 16)}"`;
};
const request = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  server().app.inject({ method, url, headers: { ...auth, ...headers } });

/** All rows of a Parquet file as the project's DuckDB reads them, in file order, as JSON values. */
async function duckdbRows(file: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const db = await instance.connect();
    try {
      return (
        await db.runAndReadAll(`SELECT * FROM read_parquet(${quoteLiteral(file)})`)
      ).getRowObjectsJson();
    } finally {
      db.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

describe('GET /api/v1/lake', () => {
  it("lists every table of the published snapshot's manifest with rows, columns and types, size and URL", async () => {
    const manifest = await readManifest(snapshotDir(server().lakeDir, SNAPSHOT));
    // What the lake itself says of a table's file: its size on disk and the manifest's checksum.
    const file = async (table: string) => ({
      bytes: (await stat(fileOf(table))).size,
      sha256: manifest.tables[table]!.sha256,
    });
    const response = await request('/api/v1/lake');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-snapshot-id']).toBe(SNAPSHOT);
    expect(response.json()).toEqual({
      snapshot: { id: SNAPSHOT, created_at: '2026-11-21T12:00:00.000Z' },
      tables: [
        {
          name: 'households',
          description: 'fixture households',
          rows: 3,
          ...(await file('households')),
          url: `/api/v1/lake/snapshots/${SNAPSHOT}/households.parquet`,
          columns: [
            { name: 'household_id', type: 'BIGINT' },
            { name: 'zip', type: 'VARCHAR' },
            { name: 'heating_fuel', type: 'VARCHAR' },
            { name: 'income_usd', type: 'DOUBLE' },
            { name: 'owner', type: 'BOOLEAN' },
            { name: 'upgrades', type: 'JSON' },
            { name: 'county_fips', type: 'VARCHAR' },
          ],
        },
        {
          name: 'meter_readings',
          description: 'fixture meter_readings',
          rows: 60_000,
          ...(await file('meter_readings')),
          url: `/api/v1/lake/snapshots/${SNAPSHOT}/meter_readings.parquet`,
          columns: [
            { name: 'reading_id', type: 'BIGINT' },
            { name: 'kwh', type: 'DOUBLE' },
            { name: 'meter', type: 'VARCHAR' },
          ],
        },
        {
          name: 'programs',
          description: 'fixture programs',
          rows: 3,
          ...(await file('programs')),
          url: `/api/v1/lake/snapshots/${SNAPSHOT}/programs.parquet`,
          columns: [
            { name: 'snapshot', type: 'VARCHAR' },
            { name: 'program', type: 'VARCHAR' },
            { name: 'amountUsd', type: 'DOUBLE' },
          ],
        },
      ],
    });
  });

  it('needs a key, like every API route', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/api/v1/lake' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET and HEAD /api/v1/lake/{table}.parquet', () => {
  it('serves the whole file byte for byte, tagged with the snapshot and the file', async () => {
    const local = await readFile(fileOf('households'));
    const response = await request('/api/v1/lake/households.parquet');
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(local)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'application/vnd.apache.parquet',
      'content-length': String(local.length),
      'content-disposition': 'attachment; filename="households.parquet"',
      'accept-ranges': 'bytes',
      etag: await etagOf('households'),
      'last-modified': 'Sat, 21 Nov 2026 12:00:00 GMT',
      'cache-control': 'private, no-cache',
      'x-snapshot-id': SNAPSHOT,
    });
    expect(response.headers.etag).toMatch(/^"lake-http-a\.[0-9a-f]{16}"$/);
    expect(response.headers['x-ratelimit-remaining']).toBeDefined();
  });

  it('answers HEAD with the size and Accept-Ranges, and no body (what httpfs asks first)', async () => {
    const { size } = await stat(fileOf('meter_readings'));
    const response = await request('/api/v1/lake/meter_readings.parquet', {}, 'HEAD');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(size));
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers.etag).toBe(await etagOf('meter_readings'));
    expect(response.body).toBe('');
  });

  it('answers a byte range with 206 and that slice: the footer a Parquet reader asks for first', async () => {
    const local = await readFile(fileOf('meter_readings'));
    const size = local.length;
    const head = await request('/api/v1/lake/meter_readings.parquet', { range: 'bytes=0-3' });
    expect(head.statusCode).toBe(206);
    expect(head.body).toBe('PAR1');
    expect(head.headers['content-range']).toBe(`bytes 0-3/${size}`);
    expect(head.headers['content-length']).toBe('4');
    const tail = await request('/api/v1/lake/meter_readings.parquet', { range: 'bytes=-8' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(local.subarray(size - 8))).toBe(true);
    expect(tail.headers['content-range']).toBe(`bytes ${size - 8}-${size - 1}/${size}`);
    const middle = await request('/api/v1/lake/meter_readings.parquet', { range: 'bytes=100000-' });
    expect(middle.statusCode).toBe(206);
    expect(middle.rawPayload.equals(local.subarray(100000))).toBe(true);
  });

  it('answers a range past the end with 416, Content-Range: bytes */size and the error body', async () => {
    const { size } = await stat(fileOf('households'));
    const response = await request('/api/v1/lake/households.parquet', { range: `bytes=${size}-` });
    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${size}`);
    expect(response.json()).toEqual({
      statusCode: 416,
      error: 'Range Not Satisfiable',
      message: `The requested range starts past the end of the file (${size} bytes)`,
      field: 'range',
    });
  });

  it('answers If-None-Match naming the file with 304, and If-Range with the slice only for these bytes', async () => {
    const etag = await etagOf('households');
    const local = await readFile(fileOf('households'));
    const unchanged = await request('/api/v1/lake/households.parquet', { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
    const resumed = await request('/api/v1/lake/households.parquet', { range: 'bytes=4-', 'if-range': etag });
    expect(resumed.statusCode).toBe(206);
    expect(resumed.rawPayload.equals(local.subarray(4))).toBe(true);
    const byDate = await request('/api/v1/lake/households.parquet', {
      range: 'bytes=4-',
      'if-range': 'Sat, 21 Nov 2026 12:00:00 GMT',
    });
    expect(byDate.statusCode).toBe(206);
    // Another snapshot's tag: the client's bytes are not these, so it gets the whole current file.
    const stale = await request('/api/v1/lake/households.parquet', {
      range: 'bytes=4-',
      'if-range': '"lake-http-older.0123456789abcdef"',
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(local)).toBe(true);
    expect(stale.headers.etag).toBe(etag);
  });

  it.each([
    ['a name no table has', '/api/v1/lake/zipz.parquet', 'zipz'],
    ['a file in the snapshot directory the manifest does not name', '/api/v1/lake/stray.parquet', 'stray'],
    ['an encoded traversal', '/api/v1/lake/%2e%2e.parquet', '..'],
    ['a traversal through an encoded slash', '/api/v1/lake/..%2F..%2FCURRENT.parquet', '../../CURRENT'],
    [
      'an encoded slash to another snapshot',
      '/api/v1/lake/snapshots%2Flake-http-a%2Fprograms.parquet',
      'snapshots/lake-http-a/programs',
    ],
    ['a name of an object property', '/api/v1/lake/__proto__.parquet', '__proto__'],
  ])('answers 404 naming the table for %s', async (_case, url, table) => {
    await writeFile(
      path.join(snapshotDir(server().lakeDir, SNAPSHOT), 'stray.parquet'),
      'PAR1 not ours PAR1',
    );
    const response = await request(url);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: `No table "${table}" in snapshot ${SNAPSHOT}; GET /api/v1/lake lists them`,
      field: 'table',
    });
  });

  it('serves no other file of the snapshot: the manifest and names without .parquet are not routes', async () => {
    for (const url of [
      '/api/v1/lake/manifest.json',
      '/api/v1/lake/programs',
      '/api/v1/lake/programs.parquet.tmp',
    ]) {
      const response = await request(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().message).toBe(`Route GET ${url} not found`);
    }
  });

  it('needs a key', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/api/v1/lake/households.parquet' });
    expect(response.statusCode).toBe(401);
  });
});

describe('reading a served table remotely', () => {
  let origin: string;
  beforeAll(async () => {
    origin = await server().app.listen({ port: 0, host: '127.0.0.1' });
  });

  it("reads it with a Parquet reader over HTTP range requests (hyparquet), rows equal to DuckDB's of the local file", async () => {
    const statuses: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    for (const table of ['households', 'meter_readings']) {
      statuses.length = 0;
      const file = await asyncBufferFromUrl({
        url: `${origin}/api/v1/lake/${table}.parquet`,
        requestInit: { headers: auth },
        fetch: counting,
      });
      // The lake's files are zstd: hyparquet reads them with its companion package's codecs.
      const remote = await parquetReadObjects({ file, compressors });
      // The HEAD for the size, then only slices: never the whole file in one answer.
      expect(statuses[0]).toBe(200);
      expect(new Set(statuses.slice(1))).toEqual(new Set([206]));
      const local = await (await openSnapshot(localLake(server().lakeDir), SNAPSHOT)).rows(table);
      expect(remote.map(asJsonValues)).toEqual(local);
    }
  });

  it('answers 404 to dot segments sent as they are (clients like curl resolve them; a raw request may not)', async () => {
    for (const rawPath of [
      '/api/v1/lake/../../../CURRENT',
      '/api/v1/lake/../lake/../keys.json',
      '/api/v1/lake/./programs.parquet',
    ]) {
      const status = await new Promise<number | undefined>((resolve, reject) =>
        // Options, not a URL string: a URL would have its dot segments resolved before it is sent.
        httpGet(
          { host: '127.0.0.1', port: new URL(origin).port, path: rawPath, headers: auth },
          (response) => {
            response.resume();
            resolve(response.statusCode);
          },
        ).on('error', reject),
      );
      expect(status, rawPath).toBe(404);
    }
  });

  it('downloads the whole file over HTTP, and the project’s DuckDB reads the same rows from it as from the lake', async ({
    tempDir: dir,
  }) => {
    const response = await fetch(`${origin}/api/v1/lake/meter_readings.parquet`, { headers: auth });
    expect(response.status).toBe(200);
    const downloaded = path.join(dir, 'meter_readings.parquet');
    await writeFile(downloaded, Buffer.from(await response.arrayBuffer()));
    const manifest = await readManifest(snapshotDir(server().lakeDir, SNAPSHOT));
    expect(
      createHash('sha256')
        .update(await readFile(downloaded))
        .digest('hex'),
    ).toBe(manifest.tables.meter_readings!.sha256);
    expect(await duckdbRows(downloaded)).toEqual(await duckdbRows(fileOf('meter_readings')));
  });
});

/**
 * A row as the project's snapshot reader gives it, so two readers' values compare: integers as numbers
 * (hyparquet gives INT64 as bigint) and JSON columns as their parsed value.
 */
function asJsonValues(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([name, value]) => {
      if (typeof value === 'bigint') return [name, Number(value)];
      if (name === 'upgrades' && typeof value === 'string') return [name, JSON.parse(value)];
      return [name, value];
    }),
  );
}

describe('a new snapshot published during a download', () => {
  const first = 'lake-swap-a';
  const swapping = lakeServerForSpecs(first, {
    tables: () => [meterReadings(100_000, 1)],
    routeGroups: () => [createLakeApi()],
    key: KEY,
  });
  let origin: string;
  beforeAll(async () => {
    origin = await swapping().app.listen({ port: 0, host: '127.0.0.1' });
  });

  /** Starts a download and holds it after its first chunk; `finish` reads the rest. */
  async function startDownload(url: string) {
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet(url, { headers: auth }, resolve).on('error', reject),
    );
    const chunks: Buffer[] = [];
    const firstChunk = await new Promise<Buffer>((resolve) => response.once('data', resolve));
    response.pause();
    chunks.push(firstChunk);
    return {
      response,
      finish: async () => {
        for await (const chunk of response) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      },
    };
  }

  it("finishes with the old snapshot's bytes and ETag, while new requests get the new snapshot's", async () => {
    const { lakeDir, holder } = swapping();
    const url = `${origin}/api/v1/lake/meter_readings.parquet`;
    const oldBytes = await readFile(path.join(snapshotDir(lakeDir, first), 'meter_readings.parquet'));
    const download = await startDownload(url);
    const oldEtag = download.response.headers.etag!;
    expect(download.response.headers['x-snapshot-id']).toBe(first);

    const next = [programsTable('lake-swap-b'), meterReadings(100_000, 2)];
    await writeTablesSnapshot(lakeDir, 'lake-swap-b', next, { publish: true });
    await holder.refresh();
    expect(holder.current()?.id).toBe('lake-swap-b');
    const newBytes = await readFile(path.join(snapshotDir(lakeDir, 'lake-swap-b'), 'meter_readings.parquet'));
    expect(newBytes.equals(oldBytes)).toBe(false);

    const fresh = await fetch(url, { headers: auth });
    expect(fresh.headers.get('x-snapshot-id')).toBe('lake-swap-b');
    expect(Buffer.from(await fresh.arrayBuffer()).equals(newBytes)).toBe(true);
    // Resuming the old download by its ETag: those bytes are no longer served, so the whole new file comes.
    const resumed = await fetch(url, { headers: { ...auth, range: 'bytes=1000-', 'if-range': oldEtag } });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('etag')).toBe(fresh.headers.get('etag'));
    expect(Buffer.from(await resumed.arrayBuffer()).equals(newBytes)).toBe(true);

    const finished = await download.finish();
    expect(finished.length).toBe(oldBytes.length);
    expect(finished.equals(oldBytes)).toBe(true);
  });
});

describe('a remote reader following the listing’s pinned URLs', () => {
  const first = 'lake-pin-a';
  const REVIEWER = 'lake-over-http-reviewer-0123456789';
  const pinned = lakeServerForSpecs(first, {
    tables: () => [meterReadings(100_000, 3)],
    routeGroups: () => [createLakeApi()],
    key: KEY,
    reviewerKey: REVIEWER,
    // A small limit, to show a file's many range requests count once.
    env: { RATE_LIMIT_PER_MINUTE: '6' },
  });
  let origin: string;
  beforeAll(async () => {
    origin = await pinned().app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('reads one snapshot whole even when a publish comes between its footer and its row groups', async () => {
    const { lakeDir, holder } = pinned();
    const listing = (await (await fetch(`${origin}/api/v1/lake`, { headers: auth })).json()) as {
      tables: { name: string; url: string }[];
    };
    const url = `${origin}${listing.tables.find((t) => t.name === 'meter_readings')!.url}`;
    expect(url).toBe(`${origin}/api/v1/lake/snapshots/${first}/meter_readings.parquet`);
    // The reader asks for the size and the footer first…
    const file = await asyncBufferFromUrl({ url, requestInit: { headers: auth } });
    await file.slice(file.byteLength - 8);
    // …then a new snapshot is published, with other rows in the same table…
    await writeTablesSnapshot(
      lakeDir,
      'lake-pin-b',
      [programsTable('lake-pin-b'), meterReadings(100_000, 4)],
      {
        publish: true,
      },
    );
    await holder.refresh();
    expect(holder.current()?.id).toBe('lake-pin-b');
    // …and its row groups still come from the snapshot its footer came from.
    const rows = await parquetReadObjects({ file, compressors });
    expect(rows.map(asJsonValues)).toEqual(
      await (await openSnapshot(localLake(lakeDir), first)).rows('meter_readings'),
    );

    const again = await fetch(url, { headers: auth, method: 'HEAD' });
    expect(again.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(again.headers.get('etag')).toBe(await etagOfIn(lakeDir, 'meter_readings', first));
  });

  it('serves a snapshot held for review to a reviewer key only, and lists held snapshots for it', async () => {
    const { lakeDir } = pinned();
    const hold = {
      against: 'lake-pin-b',
      findings: [
        {
          table: 'meter_readings',
          check: 'table-drop',
          severity: 'hold' as const,
          message: 'the table lost more than 10 % of its rows: 100,000 → 50,000',
          before: 100_000,
          after: 50_000,
        },
      ],
    };
    await writeTablesSnapshot(
      lakeDir,
      'lake-pin-held',
      [programsTable('lake-pin-held'), meterReadings(50_000, 5)],
      {
        publish: false,
        hold,
      },
    );
    const url = `${origin}/api/v1/lake/snapshots/lake-pin-held/meter_readings.parquet`;
    const forbidden = await fetch(url, { headers: auth });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message:
        'This key may not read snapshots held for review; a reviewer key can: npm run keys -- create --name <name> --reviewer',
      field: 'snapshot',
    });
    expect((await fetch(`${origin}/api/v1/lake/held`, { headers: auth })).status).toBe(403);
    const reviewed = await fetch(url, { headers: { authorization: `Bearer ${REVIEWER}` } });
    expect(reviewed.status).toBe(200);
    expect(
      Buffer.from(await reviewed.arrayBuffer()).equals(
        await readFile(path.join(snapshotDir(lakeDir, 'lake-pin-held'), 'meter_readings.parquet')),
      ),
    ).toBe(true);
    const gone = await fetch(`${origin}/api/v1/lake/snapshots/lake-pin-zzz/meter_readings.parquet`, {
      headers: auth,
    });
    expect(gone.status).toBe(404);

    const held = await fetch(`${origin}/api/v1/lake/held`, {
      headers: { authorization: `Bearer ${REVIEWER}` },
    });
    expect(held.status).toBe(200);
    expect(await held.json()).toEqual({
      held: [
        {
          id: 'lake-pin-held',
          created_at: '2026-11-21T12:00:00.000Z',
          against: 'lake-pin-b',
          findings: [
            {
              table: 'meter_readings',
              check: 'table-drop',
              message: 'the table lost more than 10 % of its rows: 100,000 → 50,000',
              examples: [],
            },
          ],
          tables: [
            {
              name: 'meter_readings',
              rows: 50_000,
              bytes: (await stat(path.join(snapshotDir(lakeDir, 'lake-pin-held'), 'meter_readings.parquet')))
                .size,
              sha256: (await readManifest(snapshotDir(lakeDir, 'lake-pin-held'))).tables.meter_readings!
                .sha256,
              url: '/api/v1/lake/snapshots/lake-pin-held/meter_readings.parquet',
            },
            expect.objectContaining({ name: 'programs' }),
          ],
        },
      ],
    });
  });
  it('counts a file’s many range requests once a window; other requests count as usual', async () => {
    const url = `${origin}/api/v1/lake/snapshots/${first}/meter_readings.parquet`;
    const ranges = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(url, { headers: { ...auth, range: `bytes=${i * 1000}-${i * 1000 + 999}` } }),
      ),
    );
    expect(ranges.map((r) => r.status)).toEqual(ranges.map(() => 206));
    const remaining = Number(ranges.at(-1)!.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeGreaterThanOrEqual(1);
    // Listings are ordinary requests: the window runs out.
    const listings = [];
    for (let i = 0; i <= remaining; i++)
      listings.push((await fetch(`${origin}/api/v1/lake`, { headers: auth })).status);
    expect(listings.at(-1)).toBe(429);
  });
});

const etagOfIn = async (lakeDir: string, table: string, id: string) => {
  const manifest = await readManifest(snapshotDir(lakeDir, id));
  return `"${id}.${manifest.tables[table]!.sha256.slice(0, 16)}"`;
};
