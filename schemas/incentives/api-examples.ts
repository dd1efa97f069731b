/**
 * The examples /spec.json and the /docs page show: one real request to the calculator and the service's
 * answer to it on the project's sample data (ingest/sample-data/incentives). A spec checks that the
 * service still gives exactly this answer (and that the schemas accept both), so the documentation
 * cannot drift from the code.
 */

/** A three-person Providence household of homeowners with $60,000 a year, served by Rhode Island Energy. */
export const calculatorRequestExample = {
  zip: '02903',
  owner_status: 'homeowner',
  household_income: 60_000,
  household_size: 3,
  tax_filing: 'single',
  utility: 'ri-rhode-island-energy',
} as const;

/** The answer to `calculatorRequestExample` on the sample data, as of 2026-06-01. */
export const calculatorResponseExample = {
  is_under_80_ami: true,
  is_under_150_ami: true,
  is_over_150_ami: false,
  authorities: {
    'ri-office-of-energy-resources': {
      name: 'Rhode Island Office of Energy Resources',
    },
  },
  coverage: {
    state: 'RI',
    utility: 'ri-rhode-island-energy',
  },
  location: {
    state: 'RI',
    city: 'Providence',
    county_fips: '44007',
  },
  data_partners: {},
  incentives: [
    {
      payment_methods: ['pos_rebate'],
      authority_type: 'state',
      authority: 'ri-office-of-energy-resources',
      program: 'Rhode Island Home Electrification and Appliance Rebates (HEAR)',
      program_url: 'https://energy.ri.gov/',
      items: ['electric_panel'],
      amount: {
        type: 'percent',
        number: 1,
        maximum: 4000,
      },
      owner_status: ['homeowner', 'renter'],
      start_date: '2024',
      short_description:
        'Full cost of an electric panel upgrade, up to $4,000, for households at or below 80% of area median income.',
      id: 'RI-HEAR-PANEL',
    },
    {
      payment_methods: ['pos_rebate'],
      authority_type: 'state',
      authority: 'ri-office-of-energy-resources',
      program: 'Rhode Island Home Electrification and Appliance Rebates (HEAR)',
      program_url: 'https://energy.ri.gov/',
      items: ['electric_wiring'],
      amount: {
        type: 'percent',
        number: 1,
        maximum: 2500,
      },
      owner_status: ['homeowner', 'renter'],
      start_date: '2024',
      short_description:
        'Full cost of electrical wiring upgrades, up to $2,500, for households at or below 80% of area median income.',
      id: 'RI-HEAR-WIRING',
    },
    {
      payment_methods: ['pos_rebate'],
      authority_type: 'state',
      authority: 'ri-office-of-energy-resources',
      program: 'Rhode Island Home Electrification and Appliance Rebates (HEAR)',
      program_url: 'https://energy.ri.gov/',
      items: ['electric_stove'],
      amount: {
        type: 'percent',
        number: 1,
        maximum: 840,
      },
      owner_status: ['homeowner', 'renter'],
      start_date: '2024',
      short_description:
        'Full cost of an electric or induction stove, cooktop, range or oven, up to $840, at or below 80% of area median income.',
      id: 'RI-HEAR-STOVE',
    },
    {
      payment_methods: ['pos_rebate'],
      authority_type: 'state',
      authority: 'ri-office-of-energy-resources',
      program: 'Rhode Island Home Electrification and Appliance Rebates (HEAR)',
      program_url: 'https://energy.ri.gov/',
      items: ['heat_pump_clothes_dryer'],
      amount: {
        type: 'percent',
        number: 1,
        maximum: 840,
      },
      owner_status: ['homeowner', 'renter'],
      start_date: '2024',
      short_description:
        'Full cost of an ENERGY STAR heat pump clothes dryer, up to $840, for households at or below 80% of area median income.',
      id: 'RI-HEAR-DRYER',
    },
  ],
};
