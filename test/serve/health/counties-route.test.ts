import { describe, expect, it } from 'vitest';
import { healthCountiesResponseSchema } from '../../../schemas/health-api.ts';
import {
  HEALTH_TEST_KEY,
  healthFixtureCells,
  healthServerForSpecs,
} from '../../support/health-lake-fixture.ts';

const auth = { authorization: `Bearer ${HEALTH_TEST_KEY}` };
const server = healthServerForSpecs('health-counties');
const get = (url: string) => server().app.inject({ method: 'GET', url, headers: auth });
const counties = (query: string) => get(`/api/v2/etools/health-impacts/counties?${query}`);

const HP = 'hvac__heat_pump_seer18_hspf10';
const round2 = (value: number) => Math.round(value * 100) / 100;

/** A county's households and deaths avoided (central, low) for an upgrade, summed from the fixture's long-run cells. */
function cellSums(county: string, upgrade: string) {
  const cells = healthFixtureCells('long_run').filter(
    (c) => c.county_fips === county && c.upgrade === upgrade,
  );
  const sum = (column: 'households' | 'deaths_avoided' | 'deaths_avoided_low') =>
    cells.reduce((total, cell) => total + cell[column], 0);
  return { households: sum('households'), central: sum('deaths_avoided'), low: sum('deaths_avoided_low') };
}

describe('GET /api/v2/etools/health-impacts/counties', () => {
  it('names its answer by the validated query: a URL with other parameters, in any order, shares it', async () => {
    const plain = await counties(`upgrade=${HP}`);
    const other = await counties(`utm_source=newsletter&upgrade=${HP}&language=en`);
    expect([other.statusCode, other.headers.etag, other.body]).toEqual([200, plain.headers.etag, plain.body]);
  });

  it('answers every county: households, deaths avoided by both estimates, and per 100,000 households', async () => {
    const response = await counties(`upgrade=${HP}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(healthCountiesResponseSchema.parse(body)).toEqual(body);
    // Written as bytes, it is JSON.stringify's text of the same rows, key for key.
    expect(response.body).toBe(JSON.stringify(body));
    expect(body.upgrade).toBe(HP);
    expect(body.metric).toBe('avoided_premature_mortality_incidence');
    expect(body.units).toEqual({
      impact: 'deaths_per_year',
      impact_per_100k_households: 'deaths_per_100k_households_per_year',
    });
    expect(body.counties.map((c: { county_fips: string }) => c.county_fips)).toEqual([
      '44007',
      '44009',
      '48303',
      '55025',
      '55078',
    ]);
    const menominee = cellSums('55078', HP);
    expect(menominee.households).toBe(1_300);
    expect(body.counties[4]).toEqual({
      county_fips: '55078',
      county_name: 'Menominee County',
      state_abbreviation: 'WI',
      number_of_households: 1_300,
      impact: round2(menominee.central),
      impact_low: round2(menominee.low),
      impact_per_100k_households: round2((menominee.central / 1_300) * 100_000),
      impact_low_per_100k_households: round2((menominee.low / 1_300) * 100_000),
    });
    for (const county of body.counties) {
      const sums = cellSums(county.county_fips, HP);
      expect(county.number_of_households).toBe(sums.households);
      expect(county.impact_per_100k_households).toBe(round2((sums.central / sums.households) * 100_000));
      expect(county.impact_low_per_100k_households).toBe(round2((sums.low / sums.households) * 100_000));
    }
  });

  it('a rate comes from the unrounded deaths, not from the 2-decimal count', async () => {
    // Menominee avoids a few hundredths of a death: the rate from its rounded count would be off.
    const menominee = (await counties(`upgrade=${HP}`)).json().counties[4];
    const sums = cellSums('55078', HP);
    expect(menominee.impact_per_100k_households).not.toBe(round2((menominee.impact / 1_300) * 100_000));
    expect(menominee.impact_per_100k_households).toBe(round2((sums.central / 1_300) * 100_000));
  });

  it("gives each county's counts exactly as the POST route answers them for that county", async () => {
    const map = (await counties(`upgrade=${HP}`)).json().counties;
    for (const county of map) {
      const answer = await server().app.inject({
        method: 'POST',
        url: '/api/v2/etools/health-impacts',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: {
          metrics: ['avoided_premature_mortality_incidence'],
          upgrade: [HP],
          state_fips: [county.county_fips.slice(0, 2)],
          county_fips: [county.county_fips.slice(2)],
        },
      });
      const [row] = answer.json().data;
      expect([row.county_name, row.number_of_households, row.impact, row.impact_low]).toEqual([
        county.county_name,
        county.number_of_households,
        county.impact,
        county.impact_low,
      ]);
    }
  });

  it('refuses the baseline or a missing upgrade with a 400 naming it, in English or Spanish', async () => {
    expect((await counties('upgrade=baseline')).json()).toMatchObject({
      statusCode: 400,
      field: 'upgrade',
      message: expect.stringMatching(
        /^upgrade: must be one of: weatherization__insulation_air_duct_sealing, /,
      ),
    });
    expect((await counties('language=es')).json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      field: 'upgrade',
      message: 'upgrade: es obligatorio',
    });
  });
});
