import { beforeAll, describe, expect, it } from 'vitest';
import { programsForLocation } from '../../../../serve/incentives/eligibility/programs-for-location.ts';
import type { IncentivesData } from '../../../../serve/incentives/incentives-data.ts';
import { fixtureData } from '../../../support/incentives/fixture-data.ts';

let data: IncentivesData;
beforeAll(async () => {
  data = await fixtureData();
});

describe('programsForLocation', () => {
  it('lists programs whose authority serves the location, utility ones only with the utility’s territory', () => {
    const ri = data.states.get('RI')!;
    expect(programsForLocation(ri, [40, 2311], undefined).programs.map((p) => p.id)).toEqual([
      'ri_hear',
      'ri_drive',
    ]);
    const withUtility = programsForLocation(ri, [3001, 40, 2311], undefined);
    expect(withUtility.programs.map((p) => p.id)).toEqual(['ri_hear', 'ri_rie_hvac', 'ri_drive']);
    expect(withUtility.authorityEntries).toEqual([
      '"ri-oer":{"name":"Rhode Island Office of Energy Resources"}',
      '"ri-rhode-island-energy":{"name":"Rhode Island Energy"}',
    ]);
  });

  it('filters by authority type', () => {
    const ri = data.states.get('RI')!;
    expect(programsForLocation(ri, [3001, 40], ['utility']).programs.map((p) => p.id)).toEqual([
      'ri_rie_hvac',
    ]);
    expect(programsForLocation(ri, [3001, 40], ['city']).programs).toEqual([]);
  });
});
