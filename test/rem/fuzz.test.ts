import { mkdtemp, rm } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FUELS, UPGRADES } from '../../schemas/rem.ts';
import {
  REM_TEST_KEY,
  programsTable,
  remFixtureTables,
  startRemServer,
  writeTablesSnapshot,
} from '../support/rem-lake-fixture.ts';

/*
 * Fuzzes the REM routes through the real app over a fixture snapshot: whatever the query or body, the
 * answer is 2xx or 4xx, every 4xx carries the common error body, and a 400 or 404 names the field at
 * fault. FUZZ_SEED replays or varies a run (fast-check prints the seed of a failure).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);
const AUTH = { authorization: `Bearer ${REM_TEST_KEY}` };

const errorBodySchema = z.strictObject({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string().min(1),
  field: z.string().min(1).optional(),
});

const ADDRESSES = [
  '1 Main St, Providence, RI 02903',
  '1 Main St Apt 2, Providence, Rhode Island 02903-1234',
  '1 Broadway, Lubbock, TX 79401',
  '1 Main St, Anchorage, AK 99501',
  '1 Main St, Honolulu, HI 96813',
  '1 Calle Luna, San Juan, PR 00901',
  '1 Main St, Dayton, OH 45402',
  '1 Main St, Addison, TX 75001',
  '1 Main St, Providence, RI',
  'Providence 02903',
  '02903',
  'RI 02903',
  '',
  ' ',
  '%',
  '\u0000',
  'ñandú 02903 RI',
  '１ Main St, Providence, RI ０２９０３',
  'x'.repeat(500),
  'x'.repeat(501),
  `${'1 Main St, '.repeat(60)}Providence, RI 02903`,
];
const ODD_ENUMS = ['', 'none', 'other', 'NATURAL_GAS', 'natural gas', 'baseline ', 'wood', 'null', '0', '[]'];

const valueArb = (known: readonly string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...known) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_ENUMS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  );

/** One parameter as it may appear in a URL: plain, repeated, in a bracket form, or with no value. */
const paramArb = (name: string, value: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 6, arbitrary: value.map((v) => [`${name}=${encodeURIComponent(v)}`]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value, value)
        .map(([a, b]) => [`${name}=${encodeURIComponent(a)}`, `${name}=${encodeURIComponent(b)}`]),
    },
    { weight: 1, arbitrary: value.map((v) => [`${name}[]=${encodeURIComponent(v)}`]) },
    { weight: 1, arbitrary: fc.constant([name]) },
    { weight: 2, arbitrary: fc.constant([]) },
  );

const addressQueryArb = fc
  .tuple(
    paramArb(
      'address',
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...ADDRESSES) },
        { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
      ),
    ),
    paramArb('upgrade', valueArb(UPGRADES)),
    paramArb('heating_fuel', valueArb(FUELS)),
    paramArb('water_heater_fuel', valueArb(FUELS)),
    paramArb('language', valueArb(['en', 'es'])),
    fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 })), {
      maxLength: 2,
    }),
  )
  .map(([address, upgrade, heating, waterHeater, language, extra]) =>
    [
      ...address,
      ...upgrade,
      ...heating,
      ...waterHeater,
      ...language,
      ...extra.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
    ].join('&'),
  );

/** Queries the fixture answers with 200, mixed in so the run also exercises answers, not only refusals. */
const VALID_QUERIES = [
  'address=1%20Main%20St%2C%20Providence%2C%20RI%2002903&upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas',
  'address=1%20Broadway%2C%20Lubbock%2C%20TX%2079401&upgrade=baseline&heating_fuel=propane&language=es',
  'address=02903%20RI&upgrade=water_heater__heat_pump_uef3.35&heating_fuel=natural_gas&water_heater_fuel=natural_gas',
];
const queryArb = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...VALID_QUERIES) },
  { weight: 6, arbitrary: addressQueryArb },
);

let lakeDir: string;
let server: Awaited<ReturnType<typeof startRemServer>>;
const seen = new Map<string, number>();

beforeAll(async () => {
  lakeDir = await mkdtemp(path.join(tmpdir(), 'rem-fuzz-'));
  await writeTablesSnapshot(lakeDir, 'rem-fuzz', [programsTable('rem-fuzz'), ...remFixtureTables()], {
    publish: true,
  });
  server = await startRemServer(lakeDir);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(lakeDir, { recursive: true, force: true });
});

/** The property every answer must have: 2xx JSON, or 4xx in the common error body naming its field. */
function check(url: string, res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  const { statusCode } = res;
  expect([2, 4], `${statusCode} for ${url}: ${res.body.slice(0, 300)}`).toContain(
    Math.floor(statusCode / 100),
  );
  expect(res.headers['content-type'], url).toMatch(/^application\/json/);
  if (statusCode >= 400) {
    const error = errorBodySchema.parse(JSON.parse(res.body));
    expect(error.statusCode, url).toBe(statusCode);
    expect(error.error, url).toBe(STATUS_CODES[statusCode]);
    if (statusCode === 400 || statusCode === 404)
      expect(error.field, `${url}: ${error.message}`).toBeDefined();
    const bucket = `${statusCode}:${error.field}`;
    seen.set(bucket, (seen.get(bucket) ?? 0) + 1);
  } else {
    seen.set(String(statusCode), (seen.get(String(statusCode)) ?? 0) + 1);
  }
}

describe('fuzzing the REM routes', () => {
  it('answers every generated /rem/address query with 2xx or 4xx, each 4xx naming its field', async () => {
    await fc.assert(
      fc.asyncProperty(queryArb, async (query) => {
        const url = `/api/v1/rem/address?${query}`;
        check(url, await server.app.inject({ method: 'GET', url, headers: AUTH }));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The generators reach the answers that matter, not only one kind of 400.
    for (const bucket of [
      '200',
      '400:address',
      '400:upgrade',
      '400:heating_fuel',
      '400:water_heater_fuel',
      '404:address',
    ]) {
      expect(seen.get(bucket) ?? 0, `${bucket} in ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
    }
  }, 120_000);

  it('answers malformed URLs and other methods in the error shape', async () => {
    for (const url of [
      '/api/v1/rem/address?%',
      '/api/v1/rem/address?address=%E0%A4%A',
      '/api/v1/rem/address?a=1&&&=',
    ]) {
      check(url, await server.app.inject({ method: 'GET', url, headers: AUTH }));
    }
    const post = await server.app.inject({
      method: 'POST',
      url: '/api/v1/rem/address',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: JSON.stringify({ address: 'x'.repeat(2_000_000) }),
    });
    expect([405, 413]).toContain(post.statusCode);
    check('POST /api/v1/rem/address', post);
  });
});
