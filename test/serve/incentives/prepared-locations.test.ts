import { describe, expect, it } from 'vitest';
import { preparePlaces, type IncentivesTables } from '../../../serve/incentives/incentives-data.ts';
import type { ServingLocationRow } from '../../../data-lake/tables/incentives.ts';
import { buildIncentiveTablesInProcess } from '../../support/incentives/in-process-lake.ts';
import { fixtureRecords } from '../../support/incentives/fixture-records.ts';

async function fixtureTables(): Promise<IncentivesTables> {
  const { tables } = await buildIncentiveTablesInProcess(fixtureRecords());
  return {
    locations: tables.get('incentives_serving_locations'),
    states: tables.get('incentives_serving_states'),
    thresholds: tables.get('low_income_thresholds'),
    povertyLevels: tables.get('poverty_levels'),
    taxBrackets: tables.get('tax_brackets'),
    loanPrograms: tables.get('loan_programs'),
  } as unknown as IncentivesTables;
}

describe('prepared locations', () => {
  it('share the parts two ZIPs have in common, keeping each ZIP’s own values', async () => {
    const tables = await fixtureTables();
    const chepachet = tables.locations.find((row) => row.zip === '02814')!;
    // A neighbouring ZIP with the same county, limits and utilities, parsed separately (new objects).
    const neighbour: ServingLocationRow = { ...structuredClone(chepachet), zip: '02815', zcta: '02815' };
    const data = await preparePlaces({ ...tables, locations: [...tables.locations, neighbour] });
    const [a, b] = [data.locations.get('02814')!, data.locations.get('02815')!];

    expect(b.zip).toBe('02815');
    expect(a.geographyIds).toEqual([40, 2311, 3292, 2312]);
    expect(a.counties).toEqual(['44007', '44003']);
    expect([...a.customGeographyIds]).toEqual([3292]);
    expect([...a.countyGeographyIds]).toEqual([
      ['44007', 2311],
      ['44003', 2312],
    ]);
    expect(a.ami80).toEqual([63000, 72000, 81000, 90000, 97200, 104400, 111600, 118800]);
    expect(a.electricUtilities).toEqual(['ri-rhode-island-energy', 'ri-pascoag-utility-district']);
    for (const part of [
      'geographyIds',
      'counties',
      'customGeographyIds',
      'countyGeographyIds',
      'ami80',
      'ami150',
      'electricUtilities',
      'gasUtilities',
    ] as const) {
      expect(b[part], part).toBe(a[part]);
    }
  });

  it('do not share a part whose content differs', async () => {
    const tables = await fixtureTables();
    const chepachet = tables.locations.find((row) => row.zip === '02814')!;
    const other: ServingLocationRow = {
      ...structuredClone(chepachet),
      zip: '02816',
      zcta: '02816',
      electric_utilities: ['ri-rhode-island-energy'],
    };
    const data = await preparePlaces({ ...tables, locations: [...tables.locations, other] });
    expect(data.locations.get('02816')!.electricUtilities).toEqual(['ri-rhode-island-energy']);
    expect(data.locations.get('02814')!.electricUtilities).toHaveLength(2);
  });
});
