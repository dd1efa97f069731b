import { describe, expect, it } from 'vitest';
import { countyFipsOf, profileEstimateType } from '../../../serve/rem/profile-features.ts';

describe('countyFipsOf', () => {
  it('reads GISJOIN or FIPS county codes', () => {
    expect(countyFipsOf('G4400070')).toBe('44007');
    expect(countyFipsOf('48303')).toBe('48303');
  });
});

describe('profileEstimateType', () => {
  it('labels a profile with a known building feature address_level', () => {
    expect(profileEstimateType({ geometry_floor_area: 1800 })).toBe('address_level');
    expect(profileEstimateType({ bedrooms: null, hvac_heating_type: ['Ducted Heating'] })).toBe(
      'address_level',
    );
  });

  it('labels a profile that knows nothing of the building county_level: its homes are the county’s', () => {
    expect(profileEstimateType({})).toBe('county_level');
    expect(
      profileEstimateType({ geometry_floor_area: null, vintage: undefined, geometry_attic_type: null }),
    ).toBe('county_level');
  });
});
