import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEALTH_GROUP_BYS, HEALTH_METRIC_NAMES } from '../../../schemas/health-api.ts';
import { HEALTH_UPGRADES } from '../../../schemas/health-data.ts';
import { checkAnswer, type SeenAnswers } from '../../support/fuzz-answers.ts';
import { HEALTH_TEST_KEY, healthServerForSpecs } from '../../support/health-lake-fixture.ts';

/*
 * Fuzzes the health-impacts route through the real app over the fixture snapshot: whatever the body,
 * the answer is 2xx or 4xx, every 4xx carries the common error body, and a 400 or 404 names the field at
 * fault. FUZZ_SEED replays or varies a run (fast-check prints the seed of a failure).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);
const URL = '/api/v2/etools/health-impacts';
const HEADERS = { authorization: `Bearer ${HEALTH_TEST_KEY}`, 'content-type': 'application/json' };

const ODD_VALUES = ['', '*', ' 44', '4', '044', '00', '99', 'ri', 'null', 'baseline', 'AMMONIA', '\u0000'];
/** Fixture states (RI, TX, WI), contiguous ones without data, Alaska, Hawaii, Puerto Rico, no state. */
const STATE_CODES = ['44', '48', '55', '06', '11', '02', '15', '72', '03', '57', '99'];
const COUNTY_CODES = ['*', '007', '009', '303', '025', '078', '001', '999', '000'];

/** A list field as a client might send it: mostly known values, some odd, sometimes not a list at all. */
const listArb = (known: readonly string[], maxLength = 4) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.array(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...known) },
          { weight: 1, arbitrary: fc.constantFrom(...ODD_VALUES) },
          { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.string({ maxLength: 8 })) },
        ),
        { maxLength },
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.constantFrom(null, 42, {}, true, '') },
  );

/** A list field: mostly distinct known values (so bodies get past it), else anything `listArb` makes. */
const fieldArb = (known: readonly string[], maxLength: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.subarray([...known], { minLength: 1, maxLength }) },
    { weight: 1, arbitrary: listArb(known, maxLength + 1) },
  );

const fields = {
  metrics: fieldArb(HEALTH_METRIC_NAMES, 6),
  upgrade: fieldArb(HEALTH_UPGRADES, 3),
  state_fips: fieldArb(STATE_CODES, 3),
  county_fips: fieldArb(COUNTY_CODES, 3),
  group_by: fieldArb([...HEALTH_GROUP_BYS, 'in_sqft_bin', 'acs_housing_type'], 2),
  language: fc.constantFrom('en', 'es', 'fr', 1),
  unknown_field: fc.string({ maxLength: 10 }),
};

/** Mostly bodies with the two required fields, some with any subset of the fields. */
const bodyArb = fc.oneof(
  { weight: 3, arbitrary: fc.record(fields, { requiredKeys: ['metrics', 'upgrade'] }) },
  { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
);

/** Bodies the fixture answers with 200, mixed in so the run also exercises answers, not only refusals. */
const VALID_BODIES = [
  { metrics: ['ammonia'], upgrade: ['hvac__heat_pump_seer18_hspf10'] },
  {
    metrics: ['avoided_premature_mortality_incidence', 'sulfur_dioxide'],
    upgrade: ['water_heater__heat_pump_uef3.35', 'hvac__heat_pump_seer15_hspf9'],
    state_fips: ['55'],
    county_fips: ['*'],
    group_by: ['house_size_square_feet_binned'],
    language: 'es',
  },
  {
    metrics: ['avoided_premature_mortality_value', 'nitrogen_oxides'],
    upgrade: ['combination__all_electric__hvac_seer24_hspf13__weatherization'],
    state_fips: ['44'],
    county_fips: ['009', '007'],
    group_by: ['housing_type', 'house_size_square_feet_binned'],
  },
].map((body) => JSON.stringify(body));

/** Bodies as sent: JSON of a generated body mostly, sometimes not JSON, not an object, or huge. */
const payloadArb = fc.oneof(
  { weight: 8, arbitrary: bodyArb.map((body) => JSON.stringify(body)) },
  { weight: 2, arbitrary: fc.constantFrom(...VALID_BODIES) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '{', 'null', '[]', '"x"', '{"metrics":["ammonia"]}x', '\u0000', '{"a":'),
  },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  {
    weight: 1,
    // Huge arrays: under the 64 KB limit (validated and refused by length) and over it (413).
    arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) =>
      JSON.stringify({
        metrics: ['ammonia'],
        upgrade: ['hvac__heat_pump_seer18_hspf10'],
        county_fips: Array(n).fill('001'),
      }),
    ),
  },
);

const server = healthServerForSpecs('health-fuzz');
const seen: SeenAnswers = new Map();
const send = (payload: string) =>
  server().app.inject({ method: 'POST', url: URL, headers: HEADERS, payload });

describe('fuzzing the health-impacts route', () => {
  it('answers every generated body with 2xx or 4xx, each 4xx naming its field', async () => {
    await fc.assert(
      fc.asyncProperty(payloadArb, async (payload) => {
        checkAnswer(`POST ${URL} ${payload.slice(0, 200)}`, await send(payload), seen);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    for (const bucket of [
      '200',
      '400:body',
      '400:metrics',
      '400:upgrade',
      '400:state_fips',
      '400:county_fips',
      '400:group_by',
      '400:unknown_field',
      '404:state_fips',
      '413:body',
    ]) {
      expect(seen.get(bucket) ?? 0, `${bucket} in ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
    }
  }, 120_000);

  it('answers other content types, deep nesting and other methods in the error shape', async () => {
    const text = await server().app.inject({
      method: 'POST',
      url: URL,
      headers: { ...HEADERS, 'content-type': 'text/plain' },
      payload: VALID_BODIES[0],
    });
    expect(text.statusCode).toBe(400);
    checkAnswer('text/plain', text, seen);
    const xml = await server().app.inject({
      method: 'POST',
      url: URL,
      headers: { ...HEADERS, 'content-type': 'application/xml' },
      payload: '<metrics/>',
    });
    expect(xml.statusCode).toBe(415);
    checkAnswer('application/xml', xml, seen);
    checkAnswer('deep', await send(`${'['.repeat(5000)}${']'.repeat(5000)}`), seen);
    checkAnswer('deep object', await send(`{"metrics":${'{"a":'.repeat(2000)}1${'}'.repeat(2001)}`), seen);
    const get = await server().app.inject({ method: 'GET', url: URL, headers: HEADERS });
    expect(get.statusCode).toBe(405);
    checkAnswer('GET', get, seen);
  });
});
