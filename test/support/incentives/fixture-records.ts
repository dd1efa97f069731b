import type { SourceRecord } from '../../../ingest/source.ts';
import { INCENTIVE_RECORDS as R } from '../../../schemas/incentives/records.ts';

/**
 * A small national dataset as parsed records: Rhode Island (launched: state, utility and relationship
 * rules), South Dakota (data, not launched), Colorado (a ZIP with no income data), and an APO ZIP with no
 * ZCTA. Amounts and limits are realistic but illustrative.
 */

const record = (schema: string, key: string, payload: unknown): SourceRecord => ({ schema, key, payload });
const text = (en: string, es?: string) => (es ? { en, es } : { en });

const federal = [
  {
    id: 'IRA-1',
    payment_methods: ['tax_credit'],
    program: 'residentialCleanEnergyCredit',
    items: ['battery_storage_installation'],
    amount: { type: 'percent', number: 0.3, representative: 4800 },
    owner_status: ['homeowner'],
    start_date: '2023',
    end_date: '2025-12-31',
    short_description: text('30% tax credit for battery storage.', 'Crédito fiscal del 30% para baterías.'),
    url: text('https://www.irs.gov/credits-deductions/residential-clean-energy-credit'),
  },
  {
    id: 'IRA-5',
    payment_methods: ['tax_credit'],
    program: 'alternativeFuelVehicleRefuelingPropertyCredit',
    items: ['electric_vehicle_charger'],
    amount: { type: 'percent', number: 0.3, maximum: 1000 },
    owner_status: ['homeowner', 'renter'],
    short_description: text('30% tax credit for an EV charger, up to $1,000.'),
    url: text('https://www.irs.gov/credits-deductions/alternative-fuel-vehicle-refueling-property-credit'),
  },
  {
    id: 'IRA-14',
    payment_methods: ['tax_credit'],
    program: 'cleanVehicleCredit',
    items: ['new_electric_vehicle'],
    amount: { type: 'dollar_amount', number: 7500 },
    owner_status: ['homeowner', 'renter'],
    low_income: 'ira-30d-credit',
    end_date: '2025-09-30',
    short_description: text('Up to $7,500 for a new EV.'),
    url: text(
      'https://www.irs.gov/credits-deductions/credits-for-new-clean-vehicles-purchased-in-2023-or-after',
    ),
  },
];

const rhodeIsland = [
  {
    id: 'RI-1',
    payment_methods: ['pos_rebate'],
    program: 'ri_hear',
    items: ['ducted_heat_pump', 'ductless_heat_pump'],
    amount: { type: 'dollar_amount', number: 8000 },
    owner_status: ['homeowner'],
    low_income: 'ri-hear-80ami',
    short_description: text('Up to $8,000 off a heat pump for income-qualified households.'),
    url: text('https://energy.ri.gov/hear'),
  },
  {
    id: 'RI-2',
    payment_methods: ['rebate'],
    program: 'ri_rie_hvac',
    items: ['ductless_heat_pump'],
    amount: { type: 'dollars_per_unit', number: 350, unit: 'ton', maximum: 1400 },
    owner_status: ['homeowner'],
    short_description: text(
      '$350 per ton for a ductless heat pump.',
      '$350 por tonelada para una bomba de calor.',
    ),
    url: text('https://www.rienergy.com/heat-pumps', 'https://www.rienergy.com/es/heat-pumps'),
  },
  {
    id: 'RI-3',
    payment_methods: ['rebate'],
    program: 'ri_drive',
    items: ['new_electric_vehicle', 'used_electric_vehicle'],
    amount: { type: 'dollar_amount', number: 1500 },
    owner_status: ['homeowner', 'renter'],
    start_date: '2024-01',
    end_date: '2024Q4',
    short_description: text('$1,500 for an EV (ended).'),
    url: text('https://drive.ri.gov'),
  },
  {
    id: 'RI-4',
    payment_methods: ['rebate'],
    program: 'ri_drive',
    items: ['new_electric_vehicle'],
    amount: { type: 'dollar_amount', number: 1000 },
    owner_status: ['homeowner', 'renter'],
    short_description: text('$1,000 for a new EV.'),
    url: text('https://drive.ri.gov'),
  },
  {
    id: 'RI-5',
    payment_methods: ['rebate'],
    program: 'ri_glocester_thermostats',
    items: ['smart_thermostat'],
    amount: { type: 'dollar_amount', number: 75 },
    owner_status: ['homeowner', 'renter'],
    short_description: text('$75 for a smart thermostat, for Glocester residents.'),
    url: text('https://glocesterri.org'),
  },
];

const programs: Record<string, unknown> = {
  ri_hear: {
    name: text('RI Home Electrification Rebates', 'Reembolsos de electrificación de RI'),
    url: text('https://energy.ri.gov'),
    authority: 'ri-oer',
    authority_type: 'state',
  },
  ri_rie_hvac: {
    name: text('Rhode Island Energy Heat Pump Rebates'),
    url: text('https://www.rienergy.com'),
    authority: 'ri-rhode-island-energy',
    authority_type: 'utility',
    items: ['ductless_heat_pump'],
  },
  ri_glocester_thermostats: {
    name: text('Glocester Smart Thermostats'),
    url: text('https://glocesterri.org'),
    authority: 'ri-town-of-glocester',
    authority_type: 'city',
  },
  ri_drive: {
    name: text('DRIVE EV'),
    url: text('https://drive.ri.gov'),
    authority: 'ri-oer',
    authority_type: 'state',
  },
};

/**
 * The Town of Glocester's outline in the fixture: a 0.1° square around (-71.65, 41.95) with a 0.02° square
 * hole around (-71.62, 41.98), as GeoJSON polygon rings ([lon, lat]).
 */
export const glocesterPolygon: [number, number][][] = [
  [
    [-71.7, 41.9],
    [-71.6, 41.9],
    [-71.6, 42.0],
    [-71.7, 42.0],
    [-71.7, 41.9],
  ],
  [
    [-71.63, 41.97],
    [-71.61, 41.97],
    [-71.61, 41.99],
    [-71.63, 41.99],
    [-71.63, 41.97],
  ],
];

export function fixtureRecords(): SourceRecord[] {
  const records: SourceRecord[] = [];
  federal.forEach((i, position) =>
    records.push(record(R.incentive, `federal/${i.id}`, { ...i, state: null, position })),
  );
  rhodeIsland.forEach((i, position) =>
    records.push(record(R.incentive, `RI/${i.id}`, { ...i, state: 'RI', position })),
  );
  records.push(
    record(R.incentive, 'SD/SD-1', {
      id: 'SD-1',
      state: 'SD',
      position: 0,
      payment_methods: ['rebate'],
      program: 'sd_state',
      items: ['heat_pump_water_heater'],
      amount: { type: 'dollar_amount', number: 500 },
      owner_status: ['homeowner'],
      short_description: text('$500 for a heat pump water heater.'),
      url: text('https://sd.gov/energy'),
    }),
  );
  Object.entries(programs).forEach(([id, p], position) =>
    records.push(record(R.program, `RI/${id}`, { ...(p as object), id, state: 'RI', position })),
  );
  records.push(
    record(R.program, 'SD/sd_state', {
      id: 'sd_state',
      state: 'SD',
      position: 0,
      name: text('SD Energy'),
      url: text('https://sd.gov'),
      authority: 'sd-state',
      authority_type: 'state',
    }),
  );
  const authority = (state: string, type: string, id: string, name: string, geography_ids: number[]) =>
    record(R.authority, `${state}/${type}/${id}`, { state, authority_type: type, id, name, geography_ids });
  records.push(
    authority('RI', 'state', 'ri-oer', 'Rhode Island Office of Energy Resources', [40]),
    authority('RI', 'utility', 'ri-rhode-island-energy', 'Rhode Island Energy', [3001]),
    authority('RI', 'city', 'ri-town-of-glocester', 'Town of Glocester', [3292]),
    authority('SD', 'state', 'sd-state', 'South Dakota Energy Office', [42]),
    record(R.relationships, 'RI', { state: 'RI', exclusions: { 'RI-1': ['RI-2'] } }),
    record(R.lowIncomeThreshold, 'ira-30d-credit', {
      id: 'ira-30d-credit',
      type: 'filing-status',
      source_url: 'https://www.irs.gov',
      thresholds: {
        single: [0, 150000],
        joint: [0, 300000],
        hoh: [0, 225000],
        married_filing_separately: [0, 150000],
        qualifying_widower_with_dependent_child: [0, 300000],
      },
    }),
    record(R.lowIncomeThreshold, 'ri-hear-80ami', {
      id: 'ri-hear-80ami',
      type: 'ami-percentage',
      source_url: 'https://energy.ri.gov',
      thresholds: { percentage: 80 },
    }),
    record(R.taxBracket, 'single/0', {
      filing_status: 'single',
      income_min: 0,
      income_max: 11925,
      tax_rate: 0.1,
      standard_deduction: 15000,
    }),
    record(R.taxBracket, 'single/11926', {
      filing_status: 'single',
      income_min: 11926,
      income_max: null,
      tax_rate: 0.12,
      standard_deduction: 15000,
    }),
    record(R.taxBracket, 'joint/0', {
      filing_status: 'joint',
      income_min: 0,
      income_max: 23850,
      tax_rate: 0.1,
      standard_deduction: 30000,
    }),
    record(R.taxBracket, 'joint/23851', {
      filing_status: 'joint',
      income_min: 23851,
      income_max: null,
      tax_rate: 0.12,
      standard_deduction: 30000,
    }),
    record(R.povertyLevel, 'other', {
      table: 'other',
      levels_by_hhsize: [0, 15650, 21150, 26650, 32150, 37650, 43150, 48650, 54150],
      per_additional: 5500,
    }),
    record(R.loanProgram, '7', {
      position: 0,
      id: 7,
      loan_program_key: 'RI-1',
      name: 'RI Heat Pump Loan',
      description: 'Low-interest loans for heat pumps.',
      description_langs: { es: 'Préstamos a bajo interés para bombas de calor.' },
      website_url: 'https://example.org/ri-loan',
      status: 'PUBLISHED',
      financial_authority_id: 3,
      financial_authority: {
        id: 3,
        authority_type: 'state',
        name: 'RI Infrastructure Bank',
        description: null,
        state: 'RI',
        city: null,
        image_id: null,
        Image: null,
        created_at: '2025-01-01T00:00:00.000Z',
        updated_at: '2025-01-01T00:00:00.000Z',
      },
      eligible_project_types: [{ type: 'HEATING_COOLING' }],
      state: 'RI',
      is_national: false,
      loan_program_terms: {
        id: 9,
        min_credit_score: 620,
        max_debt_to_income: null,
        min_loan_amount: 1000,
        max_loan_amount: 25000,
        min_interest_rate: 0,
        max_interest_rate: 5.99,
        max_repayment_months: 120,
        created_at: '2025-01-01T00:00:00.000Z',
        updated_at: '2025-01-01T00:00:00.000Z',
      },
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
    }),
  );
  const zip = (
    code: string,
    city: string,
    state: string,
    isZcta: boolean,
    parent: string | null,
    county: string | null,
  ) =>
    record(R.zip, code, {
      zip: code,
      city,
      state,
      state_name: state,
      is_zcta: isZcta,
      parent_zcta: parent,
      county_fips: county,
      county_name: null,
    });
  records.push(
    zip('02903', 'Providence', 'RI', true, null, '44007'),
    zip('02940', 'Providence', 'RI', false, '02903', '44007'),
    zip('02814', 'Chepachet', 'RI', true, null, '44007'),
    zip('57104', 'Sioux Falls', 'SD', true, null, '46099'),
    zip('80301', 'Boulder', 'CO', true, null, '08013'),
    zip('96669', 'APO', 'AP', false, null, null),
  );
  const geography = (
    id: number,
    key: string | null,
    type: string,
    name: string,
    state: string,
    county: string | null = null,
    geometry: string | null = null,
  ) => record(R.geography, String(id), { id, key, type, name, state, county_fips: county, geometry });
  const glocester = JSON.stringify({
    type: 'FeatureCollection',
    features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: glocesterPolygon } }],
  });
  records.push(
    geography(40, null, 'state', 'Rhode Island', 'RI'),
    geography(42, null, 'state', 'South Dakota', 'SD'),
    geography(6, null, 'state', 'Colorado', 'CO'),
    geography(2311, null, 'county', 'Providence County', 'RI', '44007'),
    geography(2312, null, 'county', 'Kent County', 'RI', '44003'),
    geography(3292, null, 'custom', 'Town of Glocester', 'RI', null, glocester),
    geography(3001, 'ri-rhode-island-energy', 'electric_territory', 'Rhode Island Energy', 'RI'),
    geography(3002, 'ri-pascoag-utility-district', 'electric_territory', 'Pascoag Utility District', 'RI'),
    geography(3101, 'ri-rhode-island-energy-gas', 'gas_territory', 'Rhode Island Energy', 'RI'),
  );
  let position = 0;
  const overlap = (zcta: string, id: number, share: number) =>
    record(R.zctaGeography, `${zcta}/${id}`, {
      position: position++,
      zcta,
      geography_id: id,
      intersection_proportion: share,
    });
  records.push(
    overlap('02903', 40, 1),
    overlap('02903', 2311, 1),
    overlap('02814', 40, 1),
    overlap('02814', 2312, 0.3),
    overlap('02814', 2311, 0.7),
    overlap('02814', 3292, 0.4),
    overlap('57104', 42, 1),
    overlap('80301', 6, 1),
  );
  const served = (code: string, id: number, predominant: boolean) =>
    record(R.zipUtility, `${code}/${id}`, { position: position++, zip: code, geography_id: id, predominant });
  records.push(
    served('02903', 3001, true),
    served('02903', 3101, true),
    served('02814', 3002, false),
    served('02814', 3001, true),
  );
  const ami = (zcta: string, ami80: number, ami150: number) =>
    record(R.amiZcta, zcta, {
      zcta,
      name: zcta,
      median_family_income: null,
      ami_30: 0,
      ami_50: 0,
      ami_60: 0,
      ami_80: ami80,
      ami_100: 0,
      ami_150: ami150,
    });
  records.push(
    ami('02903', 80950, 151800),
    ami('02814', 90000, 168750),
    ami('57104', 76000, 142500),
    record(R.evChargerZcta, '02903', { zcta: '02903', is_eligible: true }),
    record(R.evChargerZcta, '02814', { zcta: '02814', is_eligible: false }),
    record(R.evChargerZcta, '57104', { zcta: '57104', is_eligible: false }),
    record(R.evChargerZcta, '80301', { zcta: '80301', is_eligible: false }),
  );
  return records;
}
