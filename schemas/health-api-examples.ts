/**
 * The examples /spec.json and the /docs page show for the health-impacts route: the reference notebook's
 * request (every county of Wisconsin by floor-area bin) and the service's answer to it on the test
 * fixture's cells (test/support/health-lake-fixture.ts: made-up numbers of a realistic shape, not model
 * output). A spec checks that the service still gives exactly this answer, so the documentation cannot
 * drift from the code.
 */
import { HEALTH_ESTIMATES, HEALTH_STATEMENT } from './health-model.ts';

export const healthImpactsRequestExample = {
  metrics: ['avoided_premature_mortality_incidence'],
  upgrade: ['hvac__heat_pump_seer18_hspf10'],
  state_fips: ['55'],
  county_fips: ['*'],
  group_by: ['house_size_square_feet_binned'],
};

/** The answer to `healthImpactsRequestExample` on the test fixture's cells. */
export const healthImpactsResponseExample = {
  data: [
    {
      state_abbreviation: 'WI',
      county_fips: '025',
      county_name: 'Dane County',
      in_sqft_bin: '0-1499',
      number_of_households: 133000,
      metric: 'avoided_premature_mortality_incidence',
      impact: 0.7,
      impact_low: 0.3,
      units: 'deaths_per_year',
      warnings: null,
    },
    {
      state_abbreviation: 'WI',
      county_fips: '025',
      county_name: 'Dane County',
      in_sqft_bin: '1500-2499',
      number_of_households: 45000,
      metric: 'avoided_premature_mortality_incidence',
      impact: 0.75,
      impact_low: 0.32,
      units: 'deaths_per_year',
      warnings: null,
    },
    {
      state_abbreviation: 'WI',
      county_fips: '025',
      county_name: 'Dane County',
      in_sqft_bin: '2500-5499',
      number_of_households: 22501,
      metric: 'avoided_premature_mortality_incidence',
      impact: 0.5,
      impact_low: 0.21,
      units: 'deaths_per_year',
      warnings: null,
    },
    {
      state_abbreviation: 'WI',
      county_fips: '025',
      county_name: 'Dane County',
      in_sqft_bin: '5500+',
      number_of_households: 7501,
      metric: 'avoided_premature_mortality_incidence',
      impact: 0.21,
      impact_low: 0.09,
      units: 'deaths_per_year',
      warnings: null,
    },
    {
      state_abbreviation: 'WI',
      county_fips: '078',
      county_name: 'Menominee County',
      in_sqft_bin: '0-1499',
      number_of_households: 488,
      metric: 'avoided_premature_mortality_incidence',
      impact: 0.01,
      impact_low: 0,
      units: 'deaths_per_year',
      warnings:
        'Fewer than 5,000 households: small totals rest on survey estimates of few homes and are uncertain; read with caution.',
    },
    {
      state_abbreviation: 'WI',
      county_fips: '078',
      county_name: 'Menominee County',
      in_sqft_bin: '1500-2499',
      number_of_households: 488,
      metric: 'avoided_premature_mortality_incidence',
      impact: 0.01,
      impact_low: 0,
      units: 'deaths_per_year',
      warnings:
        'Fewer than 5,000 households: small totals rest on survey estimates of few homes and are uncertain; read with caution.',
    },
    {
      state_abbreviation: 'WI',
      county_fips: '078',
      county_name: 'Menominee County',
      in_sqft_bin: '2500-5499',
      number_of_households: 243,
      metric: 'avoided_premature_mortality_incidence',
      impact: 0.01,
      impact_low: 0,
      units: 'deaths_per_year',
      warnings:
        'Fewer than 5,000 households: small totals rest on survey estimates of few homes and are uncertain; read with caution.',
    },
    {
      state_abbreviation: 'WI',
      county_fips: '078',
      county_name: 'Menominee County',
      in_sqft_bin: '5500+',
      number_of_households: 81,
      metric: 'avoided_premature_mortality_incidence',
      impact: 0,
      impact_low: 0,
      units: 'deaths_per_year',
      warnings:
        'Fewer than 5,000 households: small totals rest on survey estimates of few homes and are uncertain; read with caution.',
    },
  ],
  warnings: [
    'Rows include multi-family households (buildings of 2 or more units), whose fuel change is approximated from the county’s single-family homes scaled by RECS 2015 apartment-to-house energy use; group_by housing_type shows them apart.',
  ],
  model: {
    versions: {
      code: 'c0de00000000',
      model: 'surrogate-7f3a',
      emission_factors: 'ef-1c2d',
      damage_factors: 'df-9e8b',
    },
    sources: [
      { name: 'damage-factors', kind: 'health-damage-factors', version: '2024.1' },
      { name: 'emission-factors', kind: 'rem-emission-factors', version: '2023.2' },
    ],
    estimates: HEALTH_ESTIMATES,
    valuation: { usd_per_death: 11_514_378, dollar_year: 2024 },
    grid_emissions: 'long_run',
    statement: HEALTH_STATEMENT,
  },
};
