import type { CountyProfile } from '../../schemas/rem-data.ts';

/** Counties as the lake's rem_counties has them (ACS 2019–2023 figures, 2021 IECC zones, ZIP centroids). */
export const SUFFOLK_MA: CountyProfile = {
  county_fips: '25025',
  state: 'MA',
  name: 'Suffolk County',
  households: 329_914,
  mobile_home_share: 0.001,
  multi_unit_share: 0.824,
  climate_zone: '5A',
  latitude: 42.3343,
  longitude: -71.0689,
};

export const ST_LOUIS_MN: CountyProfile = {
  county_fips: '27137',
  state: 'MN',
  name: 'St. Louis County',
  households: 87_468,
  mobile_home_share: 0.044,
  multi_unit_share: 0.231,
  climate_zone: '7',
  latitude: 47.6,
  longitude: -92.5,
};
