import { localLake } from '../../../data-lake/lake.ts';
import { STATUS_CODES } from 'node:http';
import fc from 'fast-check';
import { afterAll, describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { z } from 'zod';
import { loadConfig } from '../../../lib/config.ts';
import type { ZodApp } from '../../../serve/route-group.ts';
import { buildApp } from '../../../serve/app.ts';
import { createIncentivesApi } from '../../../serve/incentives/incentives-api.ts';
import { lakeSnapshotSource } from '../../../serve/snapshot/lake-snapshot-source.ts';
import { SnapshotHolder } from '../../../serve/snapshot/snapshot-holder.ts';
import { defaultDefinitions } from '../../../pipeline/definitions.ts';
import { runPipeline } from '../../../pipeline/run-pipeline.ts';
import { silentLogger } from '../../support/serve-fixtures.ts';

/*
 * Fuzzes every incentives endpoint through the real app, built on a snapshot the real pipeline made from
 * the sample data. Whatever the query, the answer must be 2xx or 4xx, and every 4xx must carry the
 * common error body. FUZZ_SEED replays or varies a run (fast-check prints the seed of a failure);
 * FUZZ_STATS=1 prints how the answers were spread.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_121);
const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 600);

const errorBodySchema = z.strictObject({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string().min(1),
  field: z.string().min(1).optional(),
});

// ---------------------------------------------------------------------------------------------------
// Generators

const SAMPLE_ZIPS = ['02116', '02903', '02901', '02814', '02807', '80301', '80516'];
const ODD_ZIPS = [
  '99999',
  '00000',
  'abcde',
  '0211',
  '021166',
  ' 2116',
  '02116 ',
  '０２１１６',
  '2116',
  '-2116',
];
const NUMBERS = [
  '0',
  '1',
  '3',
  '8',
  '9',
  '-1',
  '60000',
  '100000000',
  '100000001',
  '1e3',
  '1E3',
  ' 5',
  '5 ',
  '0x10',
  '0b11',
  '1.5',
  '80000.0',
  '-0',
  '+4',
  'NaN',
  'Infinity',
  '-Infinity',
  '99999999999999999999',
  '1e308',
  '1e309',
  '9007199254740993',
  '４',
];
const BOOLEANS = ['true', 'false', 'TRUE', '1', '0', 'yes', ''];
const ADDRESSES = [
  '77 Massachusetts Ave, Boston, MA 02116',
  '1 Main St, Providence, RI 02903-1234',
  '1777 Broadway, Boulder, Colorado 80302',
  '1 Main St, Nowhere, ZZ 99999',
  '10 Downing St, London SW1A 2AA',
  '1 Main St, Erie, CO 80516, USA',
];
const PERCENT_GARBAGE = ['%', '%2', '%ZZ', '%E0%A4', '%FF%FE', '%00', '%C0%AF', '%2C%2C', '%252C', '%u0041'];
const UNKNOWN_NAMES = [
  'utilty',
  'items_',
  'authority',
  'ZIP',
  'zip ',
  ' zip',
  'Zip',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'a[b][c][d][e][f][g]',
  '[]',
  '[0]',
  '',
];

/** Every value a parameter could plausibly or implausibly carry. */
function valueArb(enums: readonly string[]): fc.Arbitrary<string> {
  const enumValues = enums.length > 0 ? enums : ['homeowner', 'renter', 'en', 'es', 'state', 'utility'];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...enumValues) },
    { weight: 3, arbitrary: fc.subarray([...enumValues], { minLength: 1 }).map((v) => v.join(',')) },
    { weight: 2, arbitrary: fc.constantFrom(...enumValues).map((v) => `${v},${v}`) },
    { weight: 2, arbitrary: fc.constantFrom(...enumValues).map((v) => v.toUpperCase()) },
    { weight: 4, arbitrary: fc.constantFrom(...SAMPLE_ZIPS, ...ODD_ZIPS) },
    { weight: 4, arbitrary: fc.constantFrom(...NUMBERS) },
    { weight: 2, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
    { weight: 2, arbitrary: fc.constantFrom(...BOOLEANS) },
    { weight: 2, arbitrary: fc.constantFrom(...ADDRESSES) },
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(10_000), '9'.repeat(5_000), ','.repeat(3_000)) },
    { weight: 1, arbitrary: fc.constantFrom('null', 'undefined', '{}', '[]', '[1,2]', '{"a":1}') },
  );
}

/** Any parameter name: the endpoint's own (plain or in bracket forms), near misses and junk. */
function nameArb(known: readonly string[]): fc.Arbitrary<string> {
  const knownName = fc.constantFrom(...known);
  return fc.oneof(
    { weight: 10, arbitrary: knownName },
    { weight: 2, arbitrary: knownName.map((n) => `${n}[]`) },
    { weight: 2, arbitrary: fc.tuple(knownName, fc.nat(3)).map(([n, i]) => `${n}[${i}]`) },
    { weight: 1, arbitrary: fc.tuple(knownName, fc.nat(1_000_000)).map(([n, i]) => `${n}[${i}]`) },
    { weight: 1, arbitrary: fc.tuple(knownName, knownName).map(([a, b]) => `${a}[${b}]`) },
    { weight: 2, arbitrary: fc.constantFrom(...UNKNOWN_NAMES) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  );
}

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as a browser would send). */
const encode = (text: string): string =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** Raw text that still keeps the query's structure: only the separators are escaped. */
const raw = (text: string): string => text.replace(/[&#=%+?]/g, (c) => encode(c)).replace(/\s/g, '+');

type Pair = readonly [string, string];

/** One `key=value` chunk of a query string, encoded one of the ways clients (and attackers) do it. */
const pairArb = (known: readonly string[], enums: readonly string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      nameArb(known),
      valueArb(enums),
      fc.constantFrom('encoded', 'raw', 'percent-garbage', 'no-equals', 'empty-value'),
    )
    .chain(([name, value, style]) => {
      switch (style) {
        case 'encoded':
          return fc.constant(`${encode(name)}=${encode(value)}`);
        case 'raw':
          return fc.constant(`${raw(name)}=${raw(value)}`);
        case 'percent-garbage':
          return fc
            .constantFrom(...PERCENT_GARBAGE)
            .map((garbage) => `${encode(name)}=${garbage}${raw(value)}`);
        case 'no-equals':
          return fc.constant(encode(name));
        default:
          return fc.constant(`${encode(name)}=`);
      }
    });

/** The sample's ZIPs with the electric and gas utilities valid there. */
const SAMPLE_LOCATIONS: { zip: string; utility: string; gas?: string }[] = [
  { zip: '02116', utility: 'ma-eversource', gas: 'ma-national-grid-gas' },
  { zip: '02903', utility: 'ri-rhode-island-energy', gas: 'ri-rhode-island-energy-gas' },
  { zip: '02901', utility: 'ri-rhode-island-energy', gas: 'ri-rhode-island-energy-gas' },
  { zip: '02814', utility: 'ri-rhode-island-energy' },
  { zip: '02807', utility: 'ri-block-island-utility-district' },
  { zip: '80301', utility: 'co-xcel-energy', gas: 'co-xcel-energy-gas' },
  { zip: '80516', utility: 'co-xcel-energy', gas: 'co-xcel-energy-gas' },
];
const UTILITIES = SAMPLE_LOCATIONS.map((l) => l.utility);
const GAS_UTILITIES = [...SAMPLE_LOCATIONS.flatMap((l) => (l.gas ? [l.gas] : [])), 'none'];

/** A plausible value for a named parameter, often valid, sometimes just wrong. */
function plausibleValueArb(name: string, enums: readonly string[]): fc.Arbitrary<string> {
  const wrong = valueArb(enums);
  const right = (() => {
    switch (name) {
      case 'household_income':
        return fc.oneof(
          { weight: 5, arbitrary: fc.integer({ min: 0, max: 250_000 }).map(String) },
          { weight: 1, arbitrary: fc.constantFrom(...NUMBERS) },
        );
      case 'household_size':
        return fc.oneof(
          { weight: 5, arbitrary: fc.integer({ min: 1, max: 8 }).map(String) },
          { weight: 1, arbitrary: fc.constantFrom(...NUMBERS) },
        );
      case 'utility':
        return fc.constantFrom(...UTILITIES, 'nonexistent-utility');
      case 'gas_utility':
        return fc.constantFrom(...GAS_UTILITIES, 'nonexistent-utility');
      case 'include_beta_states':
        return fc.constantFrom('true', 'false');
      default:
        return enums.length > 0 ? fc.constantFrom(...enums) : wrong;
    }
  })();
  return fc.oneof({ weight: 29, arbitrary: right }, { weight: 1, arbitrary: wrong });
}

/** Where: a sample ZIP (then its own utilities are likely), an odd ZIP, an address, both, or neither. */
interface Where {
  pairs: string[];
  utility?: string;
  gas?: string;
}
const locationArb: fc.Arbitrary<Where> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom(...SAMPLE_LOCATIONS).map((l): Where => ({ ...l, pairs: [`zip=${l.zip}`] })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...ODD_ZIPS).map((zip): Where => ({ pairs: [`zip=${encode(zip)}`] })),
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(...ADDRESSES)
      .map((address): Where => ({ pairs: [`address=${encode(address)}`] })),
  },
  { weight: 1, arbitrary: fc.constant<Where>({ pairs: ['zip=02116', `address=${encode(ADDRESSES[0]!)}`] }) },
  { weight: 1, arbitrary: fc.constant<Where>({ pairs: [] }) },
);

/** How an array parameter's values travel: a comma list, repeated keys, `a[]=` or `a[i]=`. */
function arrayPairsArb(name: string, values: readonly string[]): fc.Arbitrary<string[]> {
  return fc.constantFrom('comma', 'encoded-comma', 'repeated', 'brackets', 'indexed').map((style) => {
    switch (style) {
      case 'comma':
        return [`${encode(name)}=${values.map(encode).join(',')}`];
      case 'encoded-comma':
        return [`${encode(name)}=${values.map(encode).join('%2C')}`];
      case 'repeated':
        return values.map((v) => `${encode(name)}=${encode(v)}`);
      case 'brackets':
        return values.map((v) => `${encode(name)}[]=${encode(v)}`);
      default:
        return values.map((v, i) => `${encode(name)}[${i}]=${encode(v)}`);
    }
  });
}

/** A query made of the endpoint's own parameters with mostly plausible values: reaches the deep rules. */
function wellFormedArb(endpoint: FuzzEndpoint): fc.Arbitrary<string> {
  const others = endpoint.params.filter((name) => name !== 'zip' && name !== 'address');
  const location = endpoint.params.includes('zip') ? locationArb : fc.constant<Where>({ pairs: [] });
  return location
    .chain((where) => {
      const chunks = others.map((name) => {
        const enums = endpoint.enumsByParam[name] ?? [];
        const local = name === 'utility' ? where.utility : name === 'gas_utility' ? where.gas : undefined;
        const value =
          local === undefined
            ? plausibleValueArb(name, enums)
            : fc.oneof({ weight: 4, arbitrary: fc.constant(local) }, plausibleValueArb(name, enums));
        const chunk = endpoint.arrayParams.includes(name)
          ? fc
              .subarray(enums.length > 0 ? [...enums] : ['x'], { minLength: 1, maxLength: 4 })
              .chain((values) => arrayPairsArb(name, values))
          : value.map((v) => [`${encode(name)}=${encode(v)}`]);
        // Required parameters are nearly always given; the rest about half the time.
        return fc.option(chunk, { nil: [], freq: endpoint.required.includes(name) ? 30 : 2 });
      });
      return fc.tuple(fc.constant(where.pairs), ...chunks);
    })
    .chain((parts) => fc.shuffledSubarray(parts.flat(), { minLength: parts.flat().length }))
    .map((parts) => parts.join('&'));
}

/** A whole query: well-formed, free-form chunks, or a valid query with chunks added or dropped. */
function queryArb(endpoint: FuzzEndpoint): fc.Arbitrary<string> {
  const pair = pairArb(endpoint.params, endpoint.enums);
  const freeForm = fc.array(pair, { maxLength: 12 }).map((pairs) => pairs.join('&'));
  const validPairs = endpoint.validQuery.map(([k, v]) => `${encode(k)}=${encode(v)}`);
  const mutated = fc
    .tuple(fc.subarray(validPairs), fc.array(pair, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([kept, added, addFirst]) => (addFirst ? [...added, ...kept] : [...kept, ...added]).join('&'));
  const repeated = fc
    .tuple(fc.constantFrom(...endpoint.params), valueArb(endpoint.enums), fc.integer({ min: 2, max: 60 }))
    .map(([name, value, times]) =>
      [...validPairs, ...Array.from({ length: times }, () => `${encode(name)}=${encode(value)}`)].join('&'),
    );
  const separators = fc
    .tuple(freeForm, fc.constantFrom('&&', '&', '&=&', '?', ';', '&&&&&&&&'))
    .map(([q, sep]) => `${sep}${q}${sep}`);
  return fc.oneof(
    { weight: 5, arbitrary: wellFormedArb(endpoint) },
    { weight: 3, arbitrary: freeForm },
    { weight: 3, arbitrary: mutated },
    { weight: 1, arbitrary: repeated },
    { weight: 1, arbitrary: separators },
  );
}

interface FuzzEndpoint {
  path: string;
  /** Parameter names the endpoint documents. */
  params: string[];
  /** Every enum value any of its parameters documents, and each parameter's own. */
  enums: string[];
  enumsByParam: Record<string, string[]>;
  /** Parameters documented as arrays, and as required. */
  arrayParams: string[];
  required: string[];
  /** A query it answers 200 to. */
  validQuery: Pair[];
}

// ---------------------------------------------------------------------------------------------------
// The app under test

const KEY = 'fuzz-test-key-0123456789abcdef';
const AUTH = { authorization: `Bearer ${KEY}` };

/** Paths and a query each answers 200 to; parameter names and enums come from the app's own spec. */
const ENDPOINTS: { path: string; validQuery: Pair[] }[] = [
  {
    path: '/api/v1/calculator',
    validQuery: [
      ['zip', '02116'],
      ['owner_status', 'homeowner'],
      ['household_income', '60000'],
      ['household_size', '3'],
      ['tax_filing', 'single'],
      ['utility', 'ma-eversource'],
    ],
  },
  { path: '/api/v1/utilities', validQuery: [['zip', '02903']] },
  {
    path: '/api/v1/incentives/programs',
    validQuery: [
      ['zip', '80301'],
      ['utility', 'co-xcel-energy'],
    ],
  },
  {
    path: '/api/v1/incentives',
    validQuery: [
      ['state', 'MA'],
      ['page_size', '5'],
    ],
  },
  { path: '/api/v1/finance/loan-programs', validQuery: [['zip', '02116']] },
  { path: '/api/v1/states', validQuery: [] },
  { path: '/api/v0/calculator', validQuery: [] },
  { path: '/api/v0/incentives', validQuery: [] },
];

/** Every `enum` list anywhere in a JSON schema (array items, unions). */
function enumsIn(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const own = Array.isArray((schema as { enum?: unknown }).enum)
    ? ((schema as { enum: unknown[] }).enum.filter((v) => typeof v === 'string') as string[])
    : [];
  return [...own, ...Object.values(schema).flatMap(enumsIn)];
}

let lakeDir: string;
let holder: SnapshotHolder;
let app: ZodApp;
let endpoints: FuzzEndpoint[];
const answers = new Map<string, Map<string, number>>();

it.beforeAll(async ({ fileTempDir }) => {
  lakeDir = fileTempDir;
  const logger = silentLogger();
  const config = loadConfig({
    LAKE_DIR: lakeDir,
    AS_OF_DATE: '2025-06-01',
    API_KEYS: KEY,
    RATE_LIMIT_PER_MINUTE: '100000000',
    LOG_LEVEL: 'silent',
    REM_STATES: 'none',
    HEALTH_STATES: 'none',
  });
  // An empty environment: the sample data, whatever INCENTIVES_SOURCE the developer has set.
  const definitions = await defaultDefinitions(config, {});
  await runPipeline({ config, logger, definitions, codeVersion: 'fuzz-test' });

  const api = createIncentivesApi();
  holder = new SnapshotHolder({
    source: lakeSnapshotSource(localLake(lakeDir)),
    loaders: [api.loader],
    pollMs: 60_000,
    logger,
  });
  await holder.start();
  app = await buildApp({
    config,
    logger,
    snapshots: holder,
    routeGroups: [api],
    keyStore: { authenticate: (key) => (key === KEY ? { id: 'fuzz', name: 'fuzz', reviewer: false } : null) },
  });
  await app.ready();

  const spec = (await app.inject({ method: 'GET', url: '/spec.json' })).json() as {
    paths: Record<
      string,
      { get?: { parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[] } }
    >;
  };
  endpoints = ENDPOINTS.map(({ path: endpointPath, validQuery }) => {
    const parameters = (spec.paths[endpointPath]?.get?.parameters ?? []).filter((p) => p.in === 'query');
    const params = parameters.map((p) => p.name);
    return {
      path: endpointPath,
      // The retired v0 routes document no parameters; they get the calculator's usual ones.
      params: params.length > 0 ? params : ['zip', 'owner_status', 'household_income', 'language'],
      enums: [...new Set(parameters.flatMap((p) => enumsIn(p.schema)))],
      enumsByParam: Object.fromEntries(parameters.map((p) => [p.name, [...new Set(enumsIn(p.schema))]])),
      arrayParams: parameters
        .filter((p) => (p.schema as { type?: unknown } | undefined)?.type === 'array')
        .map((p) => p.name),
      required: parameters.filter((p) => p.required).map((p) => p.name),
      validQuery,
    };
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  holder?.close();
  if (process.env.FUZZ_STATS) {
    const lines = [...answers].map(
      ([endpoint, byStatus]) =>
        `${endpoint}: ${[...byStatus]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
    );
    console.log(`fuzz answers (seed ${SEED}):\n${lines.join('\n')}`);
  }
});

function record(endpointPath: string, statusCode: number, field: string | undefined): void {
  const byStatus = answers.get(endpointPath) ?? new Map<string, number>();
  const bucket = statusCode >= 400 ? `${statusCode}:${field ?? '-'}` : String(statusCode);
  byStatus.set(bucket, (byStatus.get(bucket) ?? 0) + 1);
  answers.set(endpointPath, byStatus);
}

/** Asks, then checks the property every answer must have: 2xx JSON, or 4xx with the common error body. */
async function askAndCheck(endpoint: FuzzEndpoint, query: string): Promise<number> {
  const url = `${endpoint.path}?${query}`;
  const res = await app.inject({ method: 'GET', url, headers: AUTH });
  const { statusCode } = res;
  expect([2, 4], `${statusCode} for ${url}: ${res.body.slice(0, 300)}`).toContain(
    Math.floor(statusCode / 100),
  );
  expect(res.headers['content-type'], url).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as unknown;
  let field: string | undefined;
  if (statusCode >= 400) {
    const error = errorBodySchema.parse(body);
    expect(error.statusCode, url).toBe(statusCode);
    expect(error.error, url).toBe(STATUS_CODES[statusCode]);
    field = error.field;
  }
  record(endpoint.path, statusCode, field);
  return statusCode;
}

describe('fuzzing the incentives endpoints with random and malformed queries', () => {
  it('draws parameter names and values from what each v1 endpoint documents', () => {
    // The routes that answer for every location take none.
    const nationwide = ['/api/v1/states', '/api/v1/incentives'];
    for (const endpoint of endpoints.filter((e) => e.path.startsWith('/api/v1/'))) {
      expect(endpoint.params.length, endpoint.path).toBeGreaterThan(0);
      if (!nationwide.includes(endpoint.path)) expect(endpoint.params, endpoint.path).toContain('zip');
    }
    expect(endpoints[0]!.required.sort()).toEqual(['household_income', 'household_size', 'owner_status']);
  });

  it("answers each endpoint's valid query with 200", async () => {
    for (const endpoint of endpoints.filter((e) => e.path.startsWith('/api/v1/'))) {
      const query = endpoint.validQuery.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
      expect(await askAndCheck(endpoint, query), endpoint.path).toBe(200);
    }
  });

  it.each(ENDPOINTS.map((e) => e.path))(
    '%s answers every generated query with 2xx or 4xx, each 4xx in the common error shape',
    async (endpointPath) => {
      const endpoint = endpoints.find((e) => e.path === endpointPath)!;
      const retired = endpointPath.startsWith('/api/v0/');
      await fc.assert(
        fc.asyncProperty(queryArb(endpoint), async (query) => {
          await askAndCheck(endpoint, query);
        }),
        { seed: SEED, numRuns: retired ? RUNS_PER_ENDPOINT / 10 : RUNS_PER_ENDPOINT },
      );
    },
    120_000,
  );
});
