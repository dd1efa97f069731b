import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import { rewiringAmericaOpenDataParser } from '../../../ingest/parsers/rewiring-america-open-data.ts';
import { incentivesListResponseSchema } from '../../../schemas/incentives/api.ts';
import type { ZodApp } from '../../../serve/route-group.ts';
import type { LoadedSnapshot } from '../../../serve/snapshot/snapshot-holder.ts';
import { IN_PROCESS_KEY, inProcessServer, inProcessSnapshot } from '../../conformance/in-process-app.ts';
import { fixtureRecords } from '../../support/incentives/fixture-records.ts';

const SAMPLE_DIR = fileURLToPath(new URL('../../../ingest/sample-data/incentives', import.meta.url));

interface ListBody {
  snapshot: string;
  total: number;
  incentives: { id: string; state: string | null }[];
  next_page_token: string | null;
}

// The fixture's data (federal, Rhode Island, South Dakota not launched) published as two snapshots, and
// the project's sample data (federal, Colorado, Massachusetts, Rhode Island).
let fixture: ZodApp;
let sample: ZodApp;
let first: LoadedSnapshot;
let second: LoadedSnapshot;
let served: LoadedSnapshot;
beforeAll(async () => {
  first = await inProcessSnapshot(fixtureRecords(), 'fixture-1');
  second = await inProcessSnapshot(fixtureRecords(), 'fixture-2');
  served = first;
  fixture = await inProcessServer({ current: () => served }, { asOfDate: '2025-01-25' });
  const sampleRecords = await rewiringAmericaOpenDataParser.parse(createFileReader(SAMPLE_DIR));
  const sampleSnapshot = await inProcessSnapshot(sampleRecords, 'sample');
  sample = await inProcessServer({ current: () => sampleSnapshot }, { asOfDate: '2026-06-01' });
});
afterAll(async () => {
  await fixture.close();
  await sample.close();
});

async function get(app: ZodApp, url: string, headers: Record<string, string> = {}) {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${IN_PROCESS_KEY}`, ...headers },
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() as ListBody };
}

const ids = (body: ListBody) => body.incentives.map((i) => i.id);

/** Every page of a list, following next_page_token from the first page to the last. */
async function walk(app: ZodApp, query: string): Promise<ListBody[]> {
  const pages: ListBody[] = [];
  let token: string | null = null;
  do {
    const url: string = `/api/v1/incentives?${query}${token === null ? '' : `&page_token=${token}`}`;
    const { status, body } = await get(app, url);
    expect(status, url).toBe(200);
    pages.push(body);
    token = body.next_page_token;
  } while (token !== null);
  return pages;
}

describe('GET /api/v1/incentives on the sample data', () => {
  it('lists the whole catalog: 11 federal incentives, then Colorado’s 9, Massachusetts’s 9, Rhode Island’s 4', async () => {
    const { status, headers, body } = await get(sample, '/api/v1/incentives?page_size=500');
    expect(status).toBe(200);
    expect(headers['x-snapshot-id']).toBe('sample');
    expect(body.snapshot).toBe('sample');
    expect(body.total).toBe(33);
    expect(body.next_page_token).toBeNull();
    const counts = new Map<string, number>();
    for (const { state } of body.incentives)
      counts.set(state ?? 'federal', (counts.get(state ?? 'federal') ?? 0) + 1);
    expect([...counts]).toEqual([
      ['federal', 11],
      ['CO', 9],
      ['MA', 9],
      ['RI', 4],
    ]);
  });

  it('counts exactly what a filter keeps: heat pumps offered in Massachusetts', async () => {
    const { body } = await get(
      sample,
      '/api/v1/incentives?state=MA&items=ducted_heat_pump,ductless_heat_pump',
    );
    expect(body.total).toBe(5);
    expect(ids(body)).toEqual([
      'IRA-25C-HEAT-PUMPS',
      'MA-MASSSAVE-PARTIAL-HOME-ASHP',
      'MA-MASSSAVE-PARTIAL-HOME-ASHP-2026',
      'MA-MASSSAVE-WHOLE-HOME-ASHP',
      'MA-MASSSAVE-WHOLE-HOME-ASHP-2026',
    ]);
    const utility = await get(sample, '/api/v1/incentives?authority_types=utility');
    expect(utility.body.total).toBe(2);
    expect(utility.body.incentives.every((i) => i.state === 'CO')).toBe(true);
  });

  it('walks the whole catalog page by page, every incentive exactly once, in the list’s order', async () => {
    const whole = ids((await get(sample, '/api/v1/incentives?page_size=500')).body);
    const pages = await walk(sample, 'page_size=7');
    expect(pages.map((page) => page.incentives.length)).toEqual([7, 7, 7, 7, 5]);
    expect(pages.every((page) => page.total === 33)).toBe(true);
    const walked = pages.flatMap(ids);
    expect(new Set(walked).size).toBe(33);
    expect(walked).toEqual(whole);
  });

  it('answers every page in the shape /spec.json documents, nothing more', async () => {
    for (const page of await walk(sample, 'page_size=10&language=es')) {
      expect(incentivesListResponseSchema.parse(page)).toEqual(page);
    }
  });
});

describe('GET /api/v1/incentives on the fixture data', () => {
  it('shows each incentive as the calculator does, with its program in full, state and limits', async () => {
    const { body } = await get(fixture, '/api/v1/incentives?state=RI&authority_types=utility');
    expect(body).toEqual({
      snapshot: 'fixture-1',
      total: 1,
      incentives: [
        {
          id: 'RI-2',
          state: 'RI',
          payment_methods: ['rebate'],
          authority_type: 'utility',
          authority: 'ri-rhode-island-energy',
          program: {
            id: 'ri_rie_hvac',
            name: 'Rhode Island Energy Heat Pump Rebates',
            url: 'https://www.rienergy.com',
            authority_type: 'utility',
            authority: 'ri-rhode-island-energy',
            items: ['ductless_heat_pump'],
          },
          program_url: 'https://www.rienergy.com/heat-pumps',
          items: ['ductless_heat_pump'],
          amount: { type: 'dollars_per_unit', number: 350, maximum: 1400, unit: 'ton' },
          owner_status: ['homeowner'],
          short_description: '$350 per ton for a ductless heat pump.',
        },
      ],
      next_page_token: null,
    });
  });

  it('answers in Spanish where the data has Spanish, English where it does not', async () => {
    const { body } = await get(fixture, '/api/v1/incentives?state=RI&items=ductless_heat_pump&language=es');
    expect(ids(body)).toEqual(['RI-1', 'RI-2']);
    expect(body.incentives[0]).toMatchObject({
      program: { id: 'ri_hear', name: 'Reembolsos de electrificación de RI' },
      short_description: 'Up to $8,000 off a heat pump for income-qualified households.',
      low_income: 'ri-hear-80ami',
    });
    expect(body.incentives[1]).toMatchObject({
      program: { name: 'Rhode Island Energy Heat Pump Rebates' },
      program_url: 'https://www.rienergy.com/es/heat-pumps',
      short_description: '$350 por tonelada para una bomba de calor.',
    });
  });

  it('lists a state that is not launched only with include_beta_states=true, as the calculator offers it', async () => {
    const launched = await get(fixture, '/api/v1/incentives?state=SD');
    expect(ids(launched.body)).toEqual(['IRA-1', 'IRA-14', 'IRA-5']);
    const beta = await get(fixture, '/api/v1/incentives?state=SD&include_beta_states=true');
    expect(ids(beta.body)).toEqual(['IRA-1', 'IRA-14', 'IRA-5', 'SD-1']);
    expect((await get(fixture, '/api/v1/incentives')).body.total).toBe(8);
    expect((await get(fixture, '/api/v1/incentives?include_beta_states=true')).body.total).toBe(9);
  });

  it('reads list filters in every form the calculator accepts', async () => {
    for (const query of [
      'authority_types=utility,city',
      'authority_types=utility%2Ccity',
      'authority_types=utility&authority_types=city',
      'authority_types[]=utility&authority_types[]=city',
      'authority_types[0]=utility&authority_types[1]=city',
    ]) {
      expect(ids((await get(fixture, `/api/v1/incentives?${query}`)).body), query).toEqual(['RI-2', 'RI-5']);
    }
  });

  it('tags a page with its snapshot and answers a repeated request 304 from its ETag', async () => {
    const url = '/api/v1/incentives?state=RI&page_size=2';
    const { headers } = await get(fixture, url);
    expect(headers.etag).toMatch(/^"/);
    expect(headers['x-snapshot-id']).toBe('fixture-1');
    const again = await fixture.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${IN_PROCESS_KEY}`, 'if-none-match': headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('refuses a page token of a snapshot no longer served, naming page_token, in English and Spanish', async () => {
    const page = (await get(fixture, '/api/v1/incentives?page_size=3')).body;
    expect(page.next_page_token).not.toBeNull();
    served = second;
    try {
      const stale = await get(fixture, `/api/v1/incentives?page_size=3&page_token=${page.next_page_token}`);
      expect(stale.status).toBe(400);
      expect(stale.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message:
          'page_token: the incentive data has changed since this token was given; start again without page_token.',
        field: 'page_token',
      });
      const enEspañol = await get(
        fixture,
        `/api/v1/incentives?language=es&page_token=${page.next_page_token}`,
      );
      expect(enEspañol.body).toMatchObject({
        message:
          'page_token: los datos de incentivos han cambiado desde que se dio este token; empiece de nuevo sin page_token.',
        field: 'page_token',
      });
      // Starting again walks the new snapshot, with its own tokens.
      const pages = await walk(fixture, 'page_size=3');
      expect(pages.every((p) => p.snapshot === 'fixture-2')).toBe(true);
      expect(pages.flatMap(ids)).toHaveLength(8);
    } finally {
      served = first;
    }
  });
});

describe('GET /api/v1/incentives with a bad filter or page token', () => {
  const allStates =
    'AL, AK, AZ, AR, CA, CO, CT, DE, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY, DC, PR, GU, MP, VI, AS';
  const forged = (json: string) => Buffer.from(json).toString('base64url');

  it.each([
    ['state=XX', 'state', `state: must be one of: ${allStates}`],
    ['state=ri', 'state', `state: must be one of: ${allStates}`],
    [
      'authority_types=national',
      'authority_types',
      'authority_types: must be one of: federal, state, utility, gas_utility, city, county, other',
    ],
    ['items=state,state', 'items', expect.stringMatching(/^items: must be one of: air_sealing, /)],
    ['items=ebike,ebike', 'items', 'items: must not repeat a value'],
    ['include_beta_states=yes', 'include_beta_states', 'include_beta_states: must be true or false'],
    ['page_size=0', 'page_size', 'page_size: must be at least 1'],
    ['page_size=501', 'page_size', 'page_size: must be at most 500'],
    ['page_size=ten', 'page_size', 'page_size: must be an integer'],
    ['page_size=2.5', 'page_size', 'page_size: must be an integer'],
    ['page_token=', 'page_token', 'page_token: must not be empty'],
    [
      'page_token=not-a-token',
      'page_token',
      'page_token: is not a token this service gave; start again without page_token.',
    ],
    [
      `page_token=${forged('{"snapshot":"fixture-1","after":9}')}`,
      'page_token',
      'page_token: is not a token this service gave; start again without page_token.',
    ],
    [
      `page_token=${forged('{"snapshot":"fixture-1","offset":3}')}`,
      'page_token',
      'page_token: is not a token this service gave; start again without page_token.',
    ],
  ])('%s → 400 naming %s', async (query, field, message) => {
    const { status, body } = await get(fixture, `/api/v1/incentives?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ statusCode: 400, error: 'Bad Request', message, field });
  });

  it.each([
    ['state=XX', 'state', `state: debe ser uno de: ${allStates}`],
    ['page_size=0', 'page_size', 'page_size: debe ser como mínimo 1'],
    [
      'page_token=not-a-token',
      'page_token',
      'page_token: no es un token dado por este servicio; empiece de nuevo sin page_token.',
    ],
  ])('%s&language=es → 400 naming %s in Spanish', async (query, field, message) => {
    const { status, body } = await get(fixture, `/api/v1/incentives?${query}&language=es`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ message, field });
  });
});

describe('/spec.json', () => {
  it('documents the list: its filters, its page and its 400', async () => {
    const spec = (await fixture.inject({ method: 'GET', url: '/spec.json' })).json();
    const operation = spec.paths['/api/v1/incentives'].get;
    expect(operation.operationId).toBe('getIncentives');
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual([
      'state',
      'authority_types',
      'items',
      'include_beta_states',
      'language',
      'page_size',
      'page_token',
    ]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '503']));
    expect(Object.keys(spec.components.schemas)).toEqual(
      expect.arrayContaining(['APIIncentivesListResponse', 'APIListedIncentive']),
    );
  });
});
