import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodApp } from '../../../serve/route-group.ts';
import { GeocoderUnavailableError, type Geocoder } from '../../../serve/geocoding/geocoder.ts';
import { IN_PROCESS_KEY, inProcessApp } from '../../conformance/in-process-app.ts';
import { fixtureRecords } from '../../support/incentives/fixture-records.ts';

// Addresses the stub geocoder knows; "down" simulates an outage.
const geocoder: Geocoder = {
  locate: async (address) => {
    if (address.includes('down')) throw new GeocoderUnavailableError('timeout');
    if (address.includes('Chepachet')) return { zip: '02814', state: 'RI', countyFips: '44003' };
    if (address.includes('Nowhere')) return { zip: '99999', state: 'RI' };
    if (address.includes('Town Hall')) return { zip: '02814', state: 'RI', lat: 41.95, lon: -71.65 };
    if (address.includes('Pond')) return { zip: '02814', state: 'RI', lat: 41.98, lon: -71.62 };
    if (address.includes('Farm')) return { zip: '02814', state: 'RI', lat: 41.85, lon: -71.65 };
    return null;
  },
};

let app: ZodApp;
beforeAll(async () => {
  app = await inProcessApp(fixtureRecords(), { asOfDate: '2025-01-25', geocoder });
});
afterAll(() => app.close());

async function get(url: string) {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${IN_PROCESS_KEY}` },
  });
  return {
    status: response.statusCode,
    body: response.json() as Record<string, unknown>,
    text: response.body,
  };
}

const ALL_ITEMS =
  'items: must be one of: air_sealing, air_to_water_heat_pump, attic_or_roof_insulation, basement_insulation, battery_storage_installation, central_air_conditioner, cool_roof, crawlspace_insulation, door_replacement, duct_replacement, duct_sealing, ducted_heat_pump, ductless_heat_pump, ebike, efficiency_rebates, electric_outdoor_equipment, electric_panel, electric_service_upgrades, electric_stove, electric_thermal_storage_and_slab, electric_vehicle_charger, electric_wiring, energy_audit, evaporative_cooler, floor_insulation, geothermal_heating_installation, heat_pump_clothes_dryer, heat_pump_water_heater, integrated_heat_pump_controls, new_electric_vehicle, new_plugin_hybrid_vehicle, non_heat_pump_clothes_dryer, non_heat_pump_water_heater, other, other_heat_pump, other_insulation, other_weatherization, rooftop_solar_installation, smart_thermostat, solar_screen_films, solar_water_heater, used_electric_vehicle, used_plugin_hybrid_vehicle, wall_insulation, whole_house_fan, window_replacement';
const household = 'owner_status=homeowner&household_income=60000&household_size=4&tax_filing=joint';
const ids = (body: Record<string, unknown>) => (body.incentives as { id: string }[]).map((i) => i.id);

describe('GET /api/v1/calculator', () => {
  it('answers a low-income Providence household with federal and Rhode Island incentives, sorted', async () => {
    const { status, body } = await get(
      `/api/v1/calculator?zip=02903&${household}&utility=ri-rhode-island-energy`,
    );
    expect(status).toBe(200);
    // RI-3 has expired, and RI-1 (income-qualified) supersedes the utility's RI-2.
    expect(ids(body)).toEqual(['RI-1', 'RI-4', 'IRA-1', 'IRA-5', 'IRA-14']);
    expect(body).toMatchObject({
      is_under_80_ami: true,
      is_under_150_ami: true,
      is_over_150_ami: false,
      authorities: { 'ri-oer': { name: 'Rhode Island Office of Energy Resources' } },
      coverage: { state: 'RI', utility: 'ri-rhode-island-energy' },
      location: { state: 'RI', city: 'Providence', county_fips: '44007' },
      data_partners: {},
    });
    expect((body.incentives as unknown[])[0]).toEqual({
      payment_methods: ['pos_rebate'],
      authority_type: 'state',
      authority: 'ri-oer',
      program: 'RI Home Electrification Rebates',
      program_url: 'https://energy.ri.gov/hear',
      items: ['ducted_heat_pump', 'ductless_heat_pump'],
      amount: { type: 'dollar_amount', number: 8000 },
      owner_status: ['homeowner'],
      short_description: 'Up to $8,000 off a heat pump for income-qualified households.',
      id: 'RI-1',
    });
  });

  it('offers the utility rebate instead when the household is above the income limit', async () => {
    const { body } = await get(
      `/api/v1/calculator?zip=02903&owner_status=homeowner&household_income=90000&household_size=4&tax_filing=joint&utility=ri-rhode-island-energy`,
    );
    expect(ids(body)).toEqual(['RI-2', 'RI-4', 'IRA-1', 'IRA-5', 'IRA-14']);
    expect(body.is_under_80_ami).toBe(false);
    expect(Object.keys(body.authorities as object).sort()).toEqual(['ri-oer', 'ri-rhode-island-energy']);
  });

  it('filters by authority type and item after the rules, and keeps the full item list', async () => {
    const { body } = await get(
      `/api/v1/calculator?zip=02903&${household}&authority_types=state&items=ductless_heat_pump`,
    );
    expect(ids(body)).toEqual(['RI-1']);
    expect((body.incentives as { items: string[] }[])[0]!.items).toEqual([
      'ducted_heat_pump',
      'ductless_heat_pump',
    ]);
  });

  it('accepts every array form and answers them identically', async () => {
    const forms = [
      'items=new_electric_vehicle,battery_storage_installation',
      'items=new_electric_vehicle%2Cbattery_storage_installation',
      'items=new_electric_vehicle&items=battery_storage_installation',
      'items[]=new_electric_vehicle&items[]=battery_storage_installation',
      'items[0]=new_electric_vehicle&items[1]=battery_storage_installation',
    ];
    const texts = await Promise.all(
      forms.map(async (form) => (await get(`/api/v1/calculator?zip=02903&${household}&${form}`)).text),
    );
    expect(new Set(texts).size).toBe(1);
    expect(ids(JSON.parse(texts[0]!) as Record<string, unknown>)).toEqual(['RI-4', 'IRA-1', 'IRA-14']);
  });

  it('serves a renter without a filing status only what renters can get and needs no tax status for', async () => {
    const { body } = await get(
      '/api/v1/calculator?zip=02814&owner_status=renter&household_income=40000&household_size=2',
    );
    // RI-5 is the town of Glocester's, which overlaps this ZIP.
    expect(ids(body)).toEqual(['RI-4', 'RI-5']);
  });

  it('resolves a ZIP that is not a ZCTA through its parent, keeping its own city', async () => {
    const { status, body } = await get(`/api/v1/calculator?zip=02940&${household}`);
    expect(status).toBe(200);
    expect(body.location).toEqual({ state: 'RI', city: 'Providence', county_fips: '44007' });
  });

  it('answers a qualifying widow(er) like a joint filer (the reference fails with 500)', async () => {
    const joint = await get(`/api/v1/calculator?zip=02903&${household}`);
    const widow = await get(
      `/api/v1/calculator?zip=02903&${household.replace('joint', 'qualifying_widower_with_dependent_child')}`,
    );
    expect(widow.status).toBe(200);
    expect(widow.text).toBe(joint.text);
  });

  it('offers only federal incentives in a state that is not launched, unless beta states are asked for', async () => {
    const base = `/api/v1/calculator?zip=57104&${household}`;
    const launchedOnly = await get(base);
    expect(ids(launchedOnly.body)).toEqual(['IRA-1', 'IRA-14']);
    expect(launchedOnly.body.coverage).toEqual({ state: null, utility: null });
    const beta = await get(`${base}&include_beta_states=true`);
    expect(ids(beta.body)).toEqual(['SD-1', 'IRA-1', 'IRA-14']);
    expect(beta.body.coverage).toEqual({ state: 'SD', utility: null });
  });

  it('localizes to Spanish, falling back to English where the data has no translation', async () => {
    const { body } = await get(
      `/api/v1/calculator?zip=02903&owner_status=homeowner&household_income=90000&household_size=4&utility=ri-rhode-island-energy&language=es&items=ductless_heat_pump`,
    );
    expect(body.incentives).toEqual([
      {
        payment_methods: ['rebate'],
        authority_type: 'utility',
        authority: 'ri-rhode-island-energy',
        program: 'Rhode Island Energy Heat Pump Rebates',
        program_url: 'https://www.rienergy.com/es/heat-pumps',
        items: ['ductless_heat_pump'],
        amount: { type: 'dollars_per_unit', number: 350, maximum: 1400, unit: 'ton' },
        owner_status: ['homeowner'],
        short_description: '$350 por tonelada para una bomba de calor.',
        id: 'RI-2',
      },
    ]);
  });

  it('locates an address through the geocoder and keeps only the county it names', async () => {
    const { status, body } = await get(
      `/api/v1/calculator?address=${encodeURIComponent('1 Main St, Chepachet, RI')}&owner_status=renter&household_income=40000&household_size=2`,
    );
    expect(status).toBe(200);
    expect(body.location).toEqual({ state: 'RI', city: 'Chepachet', county_fips: '44003' });
  });

  it.each([
    ['1 Town Hall Rd', ['RI-4', 'RI-5']],
    ['2 Pond Rd', ['RI-4']],
    ['3 Farm Rd', ['RI-4']],
  ])(
    'offers a town’s incentives at %s only if the geocoded point is inside the town',
    async (address, expected) => {
      const { body } = await get(
        `/api/v1/calculator?address=${encodeURIComponent(address)}&owner_status=renter&household_income=40000&household_size=2`,
      );
      expect(ids(body)).toEqual(expected);
    },
  );

  it.each([
    ['an unknown ZIP', 'zip=99999', 404, 'location'],
    ['a ZIP without a ZCTA', 'zip=96669', 404, 'location'],
    ['a ZIP without income data', 'zip=80301', 404, 'location'],
    ['an address the geocoder cannot place', 'address=Atlantis', 404, 'location'],
    ['an address whose ZIP no data covers', 'address=1%20Nowhere%20Rd', 404, 'location'],
    ['an address while the geocoder is down', 'address=1%20down%20St', 503, 'address'],
  ])('answers %s with %i naming the field', async (_name, location, status, field) => {
    const { status: actual, body } = await get(`/api/v1/calculator?${location}&${household}`);
    expect(actual).toBe(status);
    expect(body).toMatchObject({ statusCode: status, field });
  });

  const valid = 'zip=02903&owner_status=homeowner&household_income=60000&household_size=4';
  it.each([
    [
      'zip=02903&owner_status=homeowner&household_income=60000&household_size=9',
      'household_size',
      'household_size: must be at most 8',
    ],
    [
      // Beyond the safe-integer range the household's own bound is still what the message names.
      'zip=02903&owner_status=homeowner&household_income=60000&household_size=9007199254740993',
      'household_size',
      'household_size: must be at most 8',
    ],
    [
      'zip=02903&owner_status=homeowner&household_income=1e300&household_size=4',
      'household_income',
      'household_income: must be at most 100000000',
    ],
    [
      'zip=02903&owner_status=homeowner&household_income=60000&household_size=a',
      'household_size',
      'household_size: must be an integer',
    ],
    [
      'zip=02903&owner_status=homeowner&household_income=80000.5&household_size=4',
      'household_income',
      'household_income: must be an integer',
    ],
    [
      'zip=02903&owner_status=homeowner&household_income=&household_size=4',
      'household_income',
      'household_income: must be an integer',
    ],
    [
      'zip=02903&owner_status=landlord&household_income=60000&household_size=4',
      'owner_status',
      'owner_status: must be one of: homeowner, renter',
    ],
    [
      'zip=0290&owner_status=homeowner&household_income=60000&household_size=4',
      'zip',
      'zip: must be a five-digit ZIP code, such as 02116',
    ],
    [
      'zip=02903&zip=02814&owner_status=homeowner&household_income=60000&household_size=4',
      'zip',
      'zip: must be a single text value',
    ],
    [`${valid}&address=1%20Main%20St`, 'zip', 'zip: give exactly one of zip and address'],
    [`${valid}&include_beta_states=1`, 'include_beta_states', 'include_beta_states: must be true or false'],
    [`${valid}&items[]=ebike,other`, 'items', ALL_ITEMS],
    [`${valid}&items=ebike,ebike`, 'items', 'items: must not repeat a value'],
    [
      `${valid}&utility=ri-nowhere-power`,
      'utility',
      'Unknown utility "ri-nowhere-power": it does not serve RI.',
    ],
    [
      `${valid}&utility=rhode-island-energy`,
      'utility',
      'Unknown utility "rhode-island-energy": it does not serve RI. Did you mean "ri-rhode-island-energy"?',
    ],
    [
      `${valid}&utility=ri-rhode-island-enrgy`,
      'utility',
      'Unknown utility "ri-rhode-island-enrgy": it does not serve RI. Did you mean "ri-rhode-island-energy"?',
    ],
    [
      `${valid}&gas_utility=ri-nowhere-gas`,
      'gas_utility',
      'Unknown gas utility "ri-nowhere-gas": it does not serve RI.',
    ],
    [
      `${valid}&authority_types=utility`,
      'utility',
      'Give "utility" when asking for utility incentives (authority_types includes "utility").',
    ],
    [
      `${valid}&authority_types=gas_utility&gas_utility=none`,
      'gas_utility',
      'Give "gas_utility" (not "none") when asking for gas utility incentives (authority_types includes "gas_utility").',
    ],
  ])('rejects %s with a 400 naming %s', async (query, field, message) => {
    const { status, body } = await get(`/api/v1/calculator?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ statusCode: 400, error: 'Bad Request', message, field });
  });

  it('says what is missing, in Spanish when asked', async () => {
    const { body } = await get(
      '/api/v1/calculator?zip=02903&household_income=1&household_size=1&language=es',
    );
    expect(body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'owner_status: es obligatorio',
      field: 'owner_status',
    });
    const utility = await get(
      `/api/v1/calculator?zip=02903&${household}&utility=rhode-island-energy&language=es`,
    );
    expect(utility.body.message).toBe(
      'Empresa eléctrica desconocida "rhode-island-energy": no da servicio en RI. ¿Quiso decir "ri-rhode-island-energy"?',
    );
    const notFound = await get(`/api/v1/calculator?zip=99999&${household}&language=es`);
    expect(notFound.body.message).toBe('No se conoce ninguna ubicación para el código postal 99999.');
  });

  it('says which utilities it left out when one would add incentives, and what each adds', async () => {
    const aboveLimit = 'owner_status=homeowner&household_income=90000&household_size=4&tax_filing=joint';
    const { body } = await get(`/api/v1/calculator?zip=02903&${aboveLimit}`);
    // Without the utility, Rhode Island Energy's RI-2 rebate ($1,400 at most) is not offered.
    expect(ids(body)).toEqual(['RI-4', 'IRA-1', 'IRA-5', 'IRA-14']);
    expect(body.omitted_utilities).toEqual({
      utility: {
        message:
          '"utility" was not given: the electric utilities below serve this location, and giving one adds to ' +
          'this answer. Give its id as "utility" for a complete answer.',
        utilities: [
          {
            id: 'ri-rhode-island-energy',
            name: 'Rhode Island Energy',
            additional_incentives: 1,
            additional_up_to_usd: 1400,
          },
        ],
      },
    });
    const spanish = await get(`/api/v1/calculator?zip=02903&${aboveLimit}&language=es`);
    expect((spanish.body.omitted_utilities as { utility: { message: string } }).utility.message).toBe(
      'No se indicó "utility": las empresas eléctricas siguientes dan servicio en esta ubicación, e indicar una ' +
        'añade a esta respuesta. Indique su id como "utility" para una respuesta completa.',
    );
  });

  it('documents the left-out utilities in /spec.json as an optional field of both answers', async () => {
    const spec = (await app.inject({ method: 'GET', url: '/spec.json' })).json() as {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    };
    for (const name of ['APICalculatorResponse', 'APIProgramsResponse']) {
      const schema = spec.components.schemas[name]!;
      expect(schema.properties).toHaveProperty('omitted_utilities');
      expect(schema.required).not.toContain('omitted_utilities');
    }
  });

  it('says nothing more when no utility would change the answer, or the utility is given', async () => {
    // Below the income limit RI-1 supersedes the utility's rebate, so giving the utility adds nothing.
    expect((await get(`/api/v1/calculator?zip=02903&${household}`)).body).not.toHaveProperty(
      'omitted_utilities',
    );
    const given = await get(
      '/api/v1/calculator?zip=02903&owner_status=homeowner&household_income=90000&household_size=4' +
        '&tax_filing=joint&utility=ri-rhode-island-energy',
    );
    expect(given.body).not.toHaveProperty('omitted_utilities');
    const stateOnly = await get(
      '/api/v1/calculator?zip=02903&owner_status=homeowner&household_income=90000&household_size=4' +
        '&tax_filing=joint&authority_types=state',
    );
    expect(stateOnly.body).not.toHaveProperty('omitted_utilities');
  });

  it('rejects a utility of another state', async () => {
    const { status, body } = await get(
      `/api/v1/calculator?zip=57104&${household}&utility=ri-rhode-island-energy`,
    );
    expect(status).toBe(400);
    expect(body.field).toBe('utility');
  });

  it('ignores parameters it does not know, as the reference does', async () => {
    const plain = await get(`/api/v1/calculator?zip=02903&${household}`);
    const extra = await get(`/api/v1/calculator?zip=02903&${household}&authority=ri-oer`);
    expect(extra.text).toBe(plain.text);
  });
});

describe('GET /api/v1/utilities', () => {
  it('lists electric utilities predominant first, and gas utilities where the state has any', async () => {
    expect((await get('/api/v1/utilities?zip=02814')).body).toEqual({
      location: { state: 'RI' },
      utilities: {
        'ri-rhode-island-energy': { name: 'Rhode Island Energy' },
        'ri-pascoag-utility-district': { name: 'Pascoag Utility District' },
      },
      gas_utilities: {},
      gas_utility_affects_incentives: false,
    });
    expect((await get('/api/v1/utilities?zip=02903')).body.gas_utilities).toEqual({
      'ri-rhode-island-energy-gas': { name: 'Rhode Island Energy' },
    });
  });

  it('omits gas utilities in a state without gas territories', async () => {
    expect((await get('/api/v1/utilities?zip=57104')).body).toEqual({
      location: { state: 'SD' },
      utilities: {},
    });
  });
});

describe('GET /api/v1/incentives/programs', () => {
  it('lists the state’s programs whose authority serves the location, utility programs only with the utility', async () => {
    const withUtility = await get('/api/v1/incentives/programs?zip=02903&utility=ri-rhode-island-energy');
    expect(Object.keys(withUtility.body.programs as object)).toEqual(['ri_hear', 'ri_rie_hvac', 'ri_drive']);
    expect(withUtility.body.coverage).toEqual({ state: 'RI', utility: 'ri-rhode-island-energy' });
    expect((withUtility.body.programs as Record<string, unknown>).ri_rie_hvac).toEqual({
      name: 'Rhode Island Energy Heat Pump Rebates',
      url: 'https://www.rienergy.com',
      authority_type: 'utility',
      authority: 'ri-rhode-island-energy',
      items: ['ductless_heat_pump'],
    });
    const stateOnly = await get('/api/v1/incentives/programs?zip=02903&authority_types=state&language=es');
    expect(stateOnly.body.programs).toEqual({
      ri_hear: {
        name: 'Reembolsos de electrificación de RI',
        url: 'https://energy.ri.gov',
        authority_type: 'state',
        authority: 'ri-oer',
      },
      ri_drive: {
        name: 'DRIVE EV',
        url: 'https://drive.ri.gov',
        authority_type: 'state',
        authority: 'ri-oer',
      },
    });
    expect(stateOnly.body.authorities).toEqual({
      'ri-oer': { name: 'Rhode Island Office of Energy Resources' },
    });
  });

  it('says which utility would add programs when none is given', async () => {
    const { body } = await get('/api/v1/incentives/programs?zip=02903');
    expect(Object.keys(body.programs as object)).toEqual(['ri_hear', 'ri_drive']);
    expect(body.omitted_utilities).toEqual({
      utility: {
        message:
          '"utility" was not given: the electric utilities below serve this location, and giving one adds to ' +
          'this answer. Give its id as "utility" for a complete answer.',
        utilities: [{ id: 'ri-rhode-island-energy', name: 'Rhode Island Energy', additional_programs: 1 }],
      },
    });
  });

  it('needs the utility to list utility programs', async () => {
    const { status, body } = await get('/api/v1/incentives/programs?zip=02903&authority_types=utility');
    expect(status).toBe(400);
    expect(body.field).toBe('utility');
  });
});

describe('GET /api/v1/finance/loan-programs', () => {
  it('lists the loan programs of the location’s state as published', async () => {
    const { body } = await get('/api/v1/finance/loan-programs?zip=02903');
    expect(body).toHaveLength(1);
    expect((body as unknown as { loan_program_key: string; position?: number }[])[0]).toMatchObject({
      loan_program_key: 'RI-1',
      id: 7,
    });
    expect((body as unknown as object[])[0]).not.toHaveProperty('position');
    expect((await get('/api/v1/finance/loan-programs?zip=57104')).body).toEqual([]);
  });
});

describe('GET /api/v1/states', () => {
  it('reports launched and none as the loaded data stands, and beta when asked', async () => {
    const reference = (await get('/api/v1/states')).body as Record<string, { status: string }>;
    expect(Object.keys(reference)).toHaveLength(56);
    expect(reference.RI).toEqual({ status: 'launched' });
    expect(reference.SD).toEqual({ status: 'none' });
    // Launched by the reference, but the fixture has no California incentives: nothing to serve there.
    expect(reference.CA).toEqual({ status: 'none' });
    const withBeta = (await get('/api/v1/states?include_beta_states=true')).body as Record<
      string,
      { status: string }
    >;
    expect(withBeta.SD).toEqual({ status: 'beta' });
    expect(withBeta.WV).toEqual({ status: 'none' });
  });
});

describe('retired v0 routes', () => {
  it.each(['/api/v0/calculator', '/api/v0/incentives'])('%s answers 400', async (path) => {
    expect((await get(path)).body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'This endpoint no longer exists.',
    });
    expect((await get(`${path}?language=es`)).body.message).toBe('Este endpoint ya no existe.');
  });
});

describe('every route that takes a location (offline geocoder, with the postal table of US ZIPs)', () => {
  let postal: ZodApp;
  beforeAll(async () => {
    postal = await inProcessApp(fixtureRecords(), {
      asOfDate: '2025-01-25',
      zipCounties: [
        { zip: '02903', state: 'RI', county_fips: '44007', latitude: 41.8208, longitude: -71.4128 },
        { zip: '79401', state: 'TX', county_fips: '48303', latitude: 33.5939, longitude: -101.8434 },
      ],
    });
  });
  afterAll(() => postal.close());

  const ROUTES = [
    `/api/v1/calculator?${household}&`,
    '/api/v1/utilities?',
    '/api/v1/incentives/programs?',
    '/api/v1/finance/loan-programs?',
  ];
  const ask = async (url: string) => {
    const response = await postal.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${IN_PROCESS_KEY}` },
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };

  it.each(ROUTES)('%s refuses an address whose ZIP contradicts its state: 400 naming both', async (route) => {
    const address = encodeURIComponent('1 Main St, Lubbock, TX 02903');
    expect(await ask(`${route}address=${address}`)).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        error: 'Bad Request',
        message:
          'address: ZIP code 02903 is in RI, not in TX, the state the address names; correct one of the two',
        field: 'address',
      },
    });
    expect((await ask(`${route}address=${address}&language=es`)).body.message).toBe(
      'address: el código postal 02903 está en RI, no en TX, el estado que indica la dirección; corrija uno de los dos',
    );
  });

  it.each(ROUTES)(
    '%s refuses a ZIP that is not five digits: 400 naming zip, in English and Spanish',
    async (route) => {
      for (const zip of ['ABCDE', '0211', '021160', '02116-1234', '']) {
        expect(await ask(`${route}zip=${zip}`)).toEqual({
          status: 400,
          body: {
            statusCode: 400,
            error: 'Bad Request',
            message: 'zip: must be a five-digit ZIP code, such as 02116',
            field: 'zip',
          },
        });
        expect((await ask(`${route}zip=${zip}&language=es`)).body).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          message: 'zip: debe ser un código postal de cinco dígitos, como 02116',
          field: 'zip',
        });
      }
    },
  );

  it.each(ROUTES)('%s says the data does not cover the state of a real ZIP outside it', async (route) => {
    const expected = {
      status: 404,
      body: {
        statusCode: 404,
        error: 'Not Found',
        message: 'The incentives data being served does not cover TX, where ZIP code 79401 is.',
        field: 'location',
      },
    };
    expect(await ask(`${route}zip=79401`)).toEqual(expected);
    expect(await ask(`${route}address=${encodeURIComponent('1 Main St, Lubbock, TX 79401')}`)).toEqual(
      expected,
    );
    // A ZIP no postal data knows is still "no location".
    expect((await ask(`${route}zip=99999`)).body.message).toBe('No location is known for ZIP code 99999.');
  });
});
