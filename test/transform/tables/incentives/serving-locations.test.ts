import { describe, expect, it } from 'vitest';
import { buildIncentiveTablesInProcess } from '../../../support/incentives/in-process-lake.ts';
import type { ServingLocationRow } from '../../../../data-lake/tables/incentives.ts';
import { fixtureRecords } from '../../../support/incentives/fixture-records.ts';

async function locations(): Promise<Map<string, ServingLocationRow>> {
  const { tables } = await buildIncentiveTablesInProcess(fixtureRecords());
  const rows = tables.get('incentives_serving_locations') as ServingLocationRow[];
  return new Map(rows.map((row) => [row.zip, row]));
}

describe('incentives_serving_locations', () => {
  it('precomputes a ZCTA’s state, geographies by share, size-adjusted AMI, 30C and utilities', async () => {
    expect((await locations()).get('02814')).toEqual({
      zip: '02814',
      zcta: '02814',
      state: 'RI',
      city: 'Chepachet',
      county_fips: '44007',
      geographies: [
        { id: 40, type: 'state', county_fips: null, proportion: 1 },
        { id: 2311, type: 'county', county_fips: '44007', proportion: 0.7 },
        { id: 3292, type: 'custom', county_fips: null, proportion: 0.4 },
        { id: 2312, type: 'county', county_fips: '44003', proportion: 0.3 },
      ],
      ami_80: [63000, 72000, 81000, 90000, 97200, 104400, 111600, 118800],
      // 168750 × (1 − 0.1 × 3) is 118124.99… in floating point, so it rounds down (as the reference does).
      ami_150: [118100, 135000, 151900, 168750, 182250, 195750, 209250, 222750],
      ev_charger_eligible: false,
      electric_utilities: ['ri-rhode-island-energy', 'ri-pascoag-utility-district'],
      gas_utilities: [],
    });
  });

  it('resolves a ZIP that is not a ZCTA through its parent, with the parent’s utilities', async () => {
    expect((await locations()).get('02940')).toMatchObject({
      zip: '02940',
      zcta: '02903',
      city: 'Providence',
      electric_utilities: ['ri-rhode-island-energy'],
      gas_utilities: ['ri-rhode-island-energy-gas'],
    });
  });

  it('keeps a location without income data (null, answered 404 later) and leaves out a ZIP with no ZCTA', async () => {
    const rows = await locations();
    expect(rows.get('80301')).toMatchObject({
      state: 'CO',
      ami_80: null,
      ami_150: null,
      ev_charger_eligible: false,
    });
    expect(rows.has('96669')).toBe(false);
    expect([...rows.keys()].sort()).toEqual(['02814', '02903', '02940', '57104', '80301']);
  });
});
