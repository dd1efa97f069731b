import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUELS, UPGRADES } from '../../../schemas/rem.ts';
import { checkAnswer, type SeenAnswers } from '../../support/fuzz-answers.ts';
import { REM_TEST_KEY, remServerForSpecs } from '../../support/rem-lake-fixture.ts';

/*
 * Fuzzes the REM routes through the real app over a fixture snapshot: whatever the query or body, the
 * answer is 2xx or 4xx, every 4xx carries the common error body, and a 400 or 404 names the field at
 * fault. FUZZ_SEED replays or varies a run (fast-check prints the seed of a failure).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);
const AUTH = { authorization: `Bearer ${REM_TEST_KEY}` };

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
const VALID_PROFILE = JSON.stringify({
  upgrade: 'hvac__heat_pump_seer24_hspf13',
  heating_fuel: 'natural_gas',
  building_profile: { county: 'G4400070', building_features: { geometry_floor_area: 2000 } },
});

const queryArb = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...VALID_QUERIES) },
  { weight: 6, arbitrary: addressQueryArb },
);

const FEATURE_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  geometry_floor_area: fc.oneof(
    fc.integer({ min: -10, max: 20_000 }),
    fc.constantFrom(null, '1500', 1e308, 1.5),
  ),
  geometry_stories: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constantFrom(null, 2.5, '2')),
  bedrooms: fc.oneof(fc.integer({ min: -1, max: 8 }), fc.constant(null)),
  vintage: fc.oneof(fc.integer({ min: 1700, max: 2100 }), fc.constant(null)),
  geometry_building_type_acs: fc.array(
    fc.constantFrom('Single-Family Detached', 'Mobile Home', '2 Unit', 'Castle'),
    {
      maxLength: 3,
    },
  ),
  hvac_heating_type: fc.oneof(
    fc.array(fc.constantFrom('Ducted Heating', 'Non-Ducted Heating', 'Ducted Heat Pump', 'None', ''), {
      maxLength: 3,
    }),
    fc.constant('Ducted Heating'),
  ),
  hvac_cooling_type: fc.array(fc.constantFrom('Central AC', 'Room AC', 'None', 'central_ac'), {
    maxLength: 2,
  }),
  unknown_feature: fc.string({ maxLength: 10 }),
};

const profileArb = fc.record(
  {
    upgrade: valueArb(UPGRADES),
    heating_fuel: valueArb(FUELS),
    water_heater_fuel: valueArb(FUELS),
    language: valueArb(['en', 'es']),
    building_profile: fc.oneof(
      fc.record(
        {
          county: fc.constantFrom(
            'G4400070',
            '44007',
            '48303',
            'G4830030',
            'G0200200',
            '99999',
            'G44',
            '',
            'x',
          ),
          building_features: fc.oneof(
            fc.record(FEATURE_VALUES, { requiredKeys: [] }),
            fc.constantFrom(null, [], 'x'),
          ),
        },
        { requiredKeys: [] },
      ),
      fc.constantFrom(null, 'G4400070', 42),
    ),
  },
  { requiredKeys: [] },
);

/** Bodies as sent: JSON of a generated profile mostly, sometimes not JSON or not an object at all. */
const profileBodyArb = fc.oneof(
  { weight: 8, arbitrary: profileArb.map((body) => JSON.stringify(body)) },
  { weight: 1, arbitrary: fc.constant(VALID_PROFILE) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '{', 'null', '[]', '"x"', '{"upgrade":"baseline"}x', '\u0000'),
  },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
);

const server = remServerForSpecs('rem-fuzz');
const seen: SeenAnswers = new Map();

const check = (request: string, res: Parameters<typeof checkAnswer>[1]) => checkAnswer(request, res, seen);

describe('fuzzing the REM routes', () => {
  it('answers every generated /rem/address query with 2xx or 4xx, each 4xx naming its field', async () => {
    await fc.assert(
      fc.asyncProperty(queryArb, async (query) => {
        const url = `/api/v1/rem/address?${query}`;
        check(url, await server().app.inject({ method: 'GET', url, headers: AUTH }));
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

  it('answers every generated /rem/profile body with 2xx or 4xx, each 4xx naming its field', async () => {
    await fc.assert(
      fc.asyncProperty(profileBodyArb, async (body) => {
        const res = await server().app.inject({
          method: 'POST',
          url: '/api/v1/rem/profile',
          headers: { ...AUTH, 'content-type': 'application/json' },
          payload: body,
        });
        check(`POST /api/v1/rem/profile ${body.slice(0, 200)}`, res);
      }),
      { seed: SEED, numRuns: RUNS / 3 },
    );
  }, 120_000);

  it('answers malformed URLs and other methods in the error shape', async () => {
    for (const url of [
      '/api/v1/rem/address?%',
      '/api/v1/rem/address?address=%E0%A4%A',
      '/api/v1/rem/address?a=1&&&=',
    ]) {
      check(url, await server().app.inject({ method: 'GET', url, headers: AUTH }));
    }
    const post = await server().app.inject({
      method: 'POST',
      url: '/api/v1/rem/address',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: JSON.stringify({ address: 'x'.repeat(2_000_000) }),
    });
    expect([405, 413]).toContain(post.statusCode);
    check('POST /api/v1/rem/address', post);
    // A body over Fastify's 1 MiB limit is refused before it is parsed.
    const huge = await server().app.inject({
      method: 'POST',
      url: '/api/v1/rem/profile',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...JSON.parse(VALID_PROFILE), padding: 'x'.repeat(2_000_000) }),
    });
    expect(huge.statusCode).toBe(413);
    check('POST /api/v1/rem/profile (2 MB)', huge);
    const deep = await server().app.inject({
      method: 'POST',
      url: '/api/v1/rem/profile',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: `${'['.repeat(5000)}${']'.repeat(5000)}`,
    });
    check('POST /api/v1/rem/profile (deep)', deep);
  });
});
