import { beforeAll, describe, expect, it } from 'vitest';
import { utilitiesForLocation } from '../../../../serve/incentives/eligibility/utilities-for-location.ts';
import type { IncentivesData } from '../../../../serve/incentives/incentives-data.ts';
import { fixtureData } from '../../../support/incentives/fixture-data.ts';

let data: IncentivesData;
beforeAll(async () => {
  data = await fixtureData();
});

describe('utilitiesForLocation', () => {
  it('names the electric and gas utilities of a location, predominant first', () => {
    const location = data.locations.get('02903')!;
    expect(utilitiesForLocation(location, data.states.get('RI'))).toEqual({
      location: { state: 'RI' },
      utilities: { 'ri-rhode-island-energy': { name: 'Rhode Island Energy' } },
      gas_utilities: { 'ri-rhode-island-energy-gas': { name: 'Rhode Island Energy' } },
      gas_utility_affects_incentives: false,
    });
  });

  it('omits gas utilities when the state has no gas territories', () => {
    const location = data.locations.get('57104')!;
    expect(utilitiesForLocation(location, data.states.get('SD'))).toEqual({
      location: { state: 'SD' },
      utilities: {},
    });
  });
});
