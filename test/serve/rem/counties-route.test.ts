import { describe, expect, it } from 'vitest';
import { remCountiesResponseSchema } from '../../../schemas/rem-api.ts';
import { REM_TEST_KEY, remServerForSpecs } from '../../support/rem-lake-fixture.ts';

const auth = { authorization: `Bearer ${REM_TEST_KEY}` };
const server = remServerForSpecs('rem-counties');
const get = (url: string) => server().app.inject({ method: 'GET', url, headers: auth });
const counties = (query: string) => get(`/api/v1/rem/counties?${query}`);

const HP = 'hvac__heat_pump_seer18_hspf10';
const UNITS = { median_bill_change: '$/year', median_emissions_change: 'kgCO2e/year' };
const PROVIDENCE = { county_fips: '44007', county_name: 'Providence County', state_abbreviation: 'RI' };
const LUBBOCK = { county_fips: '48303', county_name: 'Lubbock County', state_abbreviation: 'TX' };

describe('GET /api/v1/rem/counties', () => {
  it("answers each precomputed county's median bill and emissions change, with its sample sizes", async () => {
    const response = await counties(`upgrade=${HP}&heating_fuel=natural_gas`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // Written as bytes, it is JSON.stringify's text of the same rows, key for key.
    expect(response.body).toBe(JSON.stringify(body));
    expect(remCountiesResponseSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      upgrade: HP,
      heating_fuel: 'natural_gas',
      water_heater_fuel: null,
      units: UNITS,
      // The fixture's total delta line of this cluster and upgrade: cost median −2420.123456/4 + 1,
      // emissions median −2420.123456/2 + 1, to 4 decimals. Lubbock's gas cluster was not precomputed.
      counties: [
        {
          ...PROVIDENCE,
          supported: true,
          num_samples: 388,
          num_excluded_samples: 12,
          median_bill_change: -604.0309,
          median_emissions_change: -1209.0617,
        },
      ],
    });
  });

  it('names its answer by the validated query: a URL with other parameters, in any order, shares it', async () => {
    const plain = await counties(`upgrade=${HP}&heating_fuel=natural_gas`);
    const other = await counties(`heating_fuel=natural_gas&utm_source=newsletter&upgrade=${HP}&language=en`);
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).toBe(plain.headers.etag);
    expect(other.body).toBe(plain.body);
    const spanish = await counties(`upgrade=${HP}&heating_fuel=natural_gas&language=es`);
    expect(spanish.headers.etag).not.toBe(plain.headers.etag);
  });

  it('gives exactly the medians and sample sizes GET /rem/address answers for an address in the county', async () => {
    const map = (await counties(`upgrade=${HP}&heating_fuel=natural_gas`)).json().counties[0];
    const address = (
      await get(
        `/api/v1/rem/address?address=${encodeURIComponent('1 Main St, Providence, RI 02903')}&upgrade=${HP}&heating_fuel=natural_gas`,
      )
    ).json();
    expect(map.median_bill_change).toBe(address.fuel_results.total.delta.cost.median.value);
    expect(map.median_emissions_change).toBe(address.fuel_results.total.delta.emissions.median.value);
    expect([map.num_samples, map.num_excluded_samples]).toEqual([
      address.sampling_details.num_samples,
      address.sampling_details.num_excluded_samples,
    ]);
  });

  it('has no medians where the upgrade applies to no sample home, or the fuels are too rare to estimate', async () => {
    const weatherization = (
      await counties('upgrade=weatherization__insulation_air_duct_sealing&heating_fuel=natural_gas')
    ).json();
    expect(weatherization.counties).toEqual([
      {
        ...PROVIDENCE,
        supported: true,
        num_samples: 0,
        num_excluded_samples: 400,
        median_bill_change: null,
        median_emissions_change: null,
      },
    ]);
    const fuelOil = (await counties(`upgrade=${HP}&heating_fuel=fuel_oil`)).json();
    expect(fuelOil.counties).toEqual([
      {
        ...LUBBOCK,
        supported: false,
        num_samples: 0,
        num_excluded_samples: 0,
        median_bill_change: null,
        median_emissions_change: null,
      },
    ]);
    // No cluster of electric heat was precomputed: no county.
    expect((await counties(`upgrade=${HP}&heating_fuel=electricity`)).json().counties).toEqual([]);
  });

  it('answers the water-heater upgrade for the water-heater fuel given, and asks for it when missing', async () => {
    const upgrade = 'water_heater__heat_pump_uef3.35';
    const body = (
      await counties(`upgrade=${upgrade}&heating_fuel=natural_gas&water_heater_fuel=natural_gas`)
    ).json();
    expect(body.water_heater_fuel).toBe('natural_gas');
    expect(body.counties.map((c: { num_samples: number }) => c.num_samples)).toEqual([371]);
    const missing = await counties(`upgrade=${upgrade}&heating_fuel=natural_gas&language=es`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('water_heater_fuel');
    expect(missing.json().message).toMatch(/^water_heater_fuel: /);
  });

  it('refuses the baseline, an unknown fuel or a missing parameter with a 400 naming it, in English or Spanish', async () => {
    const baseline = await counties('upgrade=baseline&heating_fuel=natural_gas');
    expect(baseline.statusCode).toBe(400);
    expect(baseline.json()).toMatchObject({
      field: 'upgrade',
      message: expect.stringMatching(/^upgrade: must be one of: weatherization/),
    });
    const fuel = await counties(`upgrade=${HP}&heating_fuel=wood&language=es`);
    expect(fuel.json()).toMatchObject({
      statusCode: 400,
      field: 'heating_fuel',
      message: 'heating_fuel: debe ser uno de: electricity, natural_gas, fuel_oil, propane',
    });
    const missing = await counties(`upgrade=${HP}`);
    expect(missing.json()).toMatchObject({ statusCode: 400, field: 'heating_fuel' });
  });

  it('needs a key, and is described in /spec.json', async () => {
    const anonymous = await server().app.inject({
      method: 'GET',
      url: `/api/v1/rem/counties?upgrade=${HP}&heating_fuel=natural_gas`,
    });
    expect(anonymous.statusCode).toBe(401);
    const spec = (await server().app.inject({ method: 'GET', url: '/spec.json' })).json();
    const route = spec.paths['/api/v1/rem/counties'].get;
    expect(route.parameters.map((p: { name: string }) => p.name)).toEqual([
      'upgrade',
      'heating_fuel',
      'water_heater_fuel',
      'language',
    ]);
    expect(route.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RemCounties',
    });
  });
});
