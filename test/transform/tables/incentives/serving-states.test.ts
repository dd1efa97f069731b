import { describe, expect, it } from 'vitest';
import { buildIncentiveTablesInProcess } from '../../../support/incentives/in-process-lake.ts';
import type { ServingStateRow } from '../../../../data-lake/tables/incentives.ts';
import { fixtureRecords, glocesterPolygon } from '../../../support/incentives/fixture-records.ts';

async function states(): Promise<Map<string, ServingStateRow>> {
  const { tables } = await buildIncentiveTablesInProcess(fixtureRecords());
  return new Map(
    (tables.get('incentives_serving_states') as ServingStateRow[]).map((row) => [row.state, row]),
  );
}

describe('incentives_serving_states', () => {
  it('has a federal row (US) with the IRA incentives and programs, then one row per state', async () => {
    const rows = await states();
    expect([...rows.keys()]).toEqual(['US', 'CO', 'RI', 'SD']);
    const federal = rows.get('US')!;
    expect(federal.incentives.map((i) => i.id)).toEqual(['IRA-1', 'IRA-5', 'IRA-14']);
    expect(federal.programs.cleanVehicleCredit).toEqual({
      name: { en: 'Federal Clean Vehicle Credit (30D)', es: 'Crédito para vehículos limpios (30D)' },
      url: {
        en: 'https://www.irs.gov/credits-deductions/credits-for-new-clean-vehicles-purchased-in-2023-or-after',
      },
      authority: null,
      authority_type: 'federal',
    });
  });

  it('gathers a state’s catalog: candidates in file order, authorities by type, utilities, relationships', async () => {
    const ri = (await states()).get('RI')!;
    expect(ri.incentives.map((i) => i.id)).toEqual(['RI-1', 'RI-2', 'RI-3', 'RI-4', 'RI-5']);
    expect(ri.incentives[0]).not.toHaveProperty('state');
    expect(ri.authorities).toEqual({
      state: { 'ri-oer': { name: 'Rhode Island Office of Energy Resources', geography_ids: [40] } },
      utility: { 'ri-rhode-island-energy': { name: 'Rhode Island Energy', geography_ids: [3001] } },
      city: { 'ri-town-of-glocester': { name: 'Town of Glocester', geography_ids: [3292] } },
    });
    expect(ri.custom_areas).toEqual([
      {
        id: 3292,
        polygons: [glocesterPolygon],
      },
    ]);
    expect(ri.electric_utilities).toEqual({
      'ri-rhode-island-energy': { id: 3001, name: 'Rhode Island Energy' },
      'ri-pascoag-utility-district': { id: 3002, name: 'Pascoag Utility District' },
    });
    expect(ri.gas_utilities).toEqual({
      'ri-rhode-island-energy-gas': { id: 3101, name: 'Rhode Island Energy' },
    });
    expect(ri.exclusions).toEqual({ 'RI-1': ['RI-2'] });
    expect(ri.prerequisites).toEqual({});
    expect(ri.gas_utility_affects_incentives).toBe(false);
  });

  it('gives a state with geographies but no incentive data an empty catalog', async () => {
    expect((await states()).get('CO')).toMatchObject({
      incentives: [],
      programs: {},
      electric_utilities: {},
    });
  });
});
