import { beforeAll, describe, expect, it } from 'vitest';
import {
  calculateIncentives,
  calculateWithTerritory,
  candidatesServing,
  type CalculationRequest,
} from '../../../../serve/incentives/eligibility/calculate-incentives.ts';
import { incomeClass } from '../../../../serve/incentives/eligibility/income-class.ts';
import type { Household } from '../../../../serve/incentives/eligibility/low-income.ts';
import type { IncentivesData } from '../../../../serve/incentives/incentives-data.ts';
import { fixtureData } from '../../../support/incentives/fixture-data.ts';
import { fixtureRecords } from '../../../support/incentives/fixture-records.ts';
import { INCENTIVE_RECORDS as R } from '../../../../schemas/incentives/records.ts';

let data: IncentivesData;
beforeAll(async () => {
  data = await fixtureData();
});

/** A request as the API makes it: the household's income class at the ZIP, and the rest. */
type HouseholdRequest = Omit<CalculationRequest, 'income'> & { household: Household };
const lowIncomeFamily: HouseholdRequest = {
  ownerStatus: 'homeowner',
  household: { income: 60000, size: 4, taxFiling: 'joint' },
  includeBetaStates: false,
  utilityGeographyIds: [3001],
};
const calculate = ({ household, ...request }: HouseholdRequest, zip = '02903') => {
  const location = data.locations.get(zip)!;
  const income = incomeClass(data, location, household);
  return calculateIncentives(data, location, { ...request, income }, '2025-01-25');
};
const ids = (request: HouseholdRequest, zip = '02903') => calculate(request, zip).incentives.map((c) => c.id);

describe('candidatesServing', () => {
  it('keeps file order and only candidates naming one of the geographies', () => {
    const ri = data.states.get('RI')!;
    expect(candidatesServing(ri, [40]).map((c) => c.id)).toEqual(['RI-1', 'RI-3', 'RI-4']);
    expect(candidatesServing(ri, [3001, 40]).map((c) => c.id)).toEqual(['RI-1', 'RI-2', 'RI-3', 'RI-4']);
    expect(candidatesServing(data.federal, []).map((c) => c.id)).toEqual(['IRA-1', 'IRA-5', 'IRA-14']);
  });
});

describe('calculateIncentives', () => {
  it('applies rules, relationships, then filters and sorts', () => {
    const result = calculate(lowIncomeFamily);
    expect(result.incentives.map((c) => c.id)).toEqual(['RI-1', 'RI-4', 'IRA-1', 'IRA-5', 'IRA-14']);
    expect(result).toMatchObject({ is_under_80_ami: true, is_under_150_ami: true, is_over_150_ami: false });
    expect(result.coveredState?.state).toBe('RI');
    expect(result.authorityEntries).toEqual(['"ri-oer":{"name":"Rhode Island Office of Energy Resources"}']);
  });

  it('evaluates relationships over every eligible incentive before the caller’s filters', () => {
    // RI-1 is filtered out by authority type, but it still supersedes RI-2.
    expect(ids({ ...lowIncomeFamily, authorityTypes: ['utility'] })).toEqual([]);
    const richer = { ...lowIncomeFamily.household, income: 90000 };
    expect(ids({ ...lowIncomeFamily, household: richer, authorityTypes: ['utility'] })).toEqual(['RI-2']);
  });

  it('uses the household size’s AMI limits', () => {
    const single = calculate({ ...lowIncomeFamily, household: { ...lowIncomeFamily.household, size: 1 } });
    // 80% AMI for one person is 56,650 here, so 60,000 is above it.
    expect(single.is_under_80_ami).toBe(false);
    expect(single.incentives.map((c) => c.id)).not.toContain('RI-1');
  });

  it('leaves out a state’s incentives unless it is launched or beta states are asked for', () => {
    const request = { ...lowIncomeFamily, utilityGeographyIds: [] };
    expect(ids(request, '57104')).toEqual(['IRA-1', 'IRA-14']);
    expect(ids({ ...request, includeBetaStates: true }, '57104')).toEqual(['SD-1', 'IRA-1', 'IRA-14']);
  });
});

describe('calculateWithTerritory', () => {
  // The fixture, and a state EV rebate for Pascoag's territory only (3002), named by a geo group: its
  // authority (the state office, geography 40) serves every RI ZIP, so only the group restricts it.
  let withGroup: IncentivesData;
  beforeAll(async () => {
    withGroup = await fixtureData([
      ...fixtureRecords(),
      { schema: R.geoGroup, key: 'RI/pascoag', payload: { state: 'RI', id: 'pascoag', geographies: [3002] } },
      {
        schema: R.incentive,
        key: 'RI/RI-6',
        payload: {
          id: 'RI-6',
          state: 'RI',
          position: 5,
          payment_methods: ['rebate'],
          program: 'ri_drive',
          items: ['new_electric_vehicle'],
          amount: { type: 'dollar_amount', number: 500 },
          owner_status: ['homeowner', 'renter'],
          eligible_geo_group: 'pascoag',
          short_description: { en: '$500 more for an EV in Pascoag.' },
          url: { en: 'https://drive.ri.gov' },
        },
      },
    ]);
  });
  const widen = (dataset: IncentivesData, household: HouseholdRequest, zip: string, territory: number) => {
    const { household: h, ...rest } = household;
    const location = dataset.locations.get(zip)!;
    const request = { ...rest, income: incomeClass(dataset, location, h) };
    const base = calculateIncentives(dataset, location, request, '2025-01-25');
    return {
      base,
      widened: calculateWithTerritory(dataset, location, request, '2025-01-25', base, territory),
      full: calculateIncentives(
        dataset,
        location,
        { ...request, utilityGeographyIds: [...request.utilityGeographyIds, territory] },
        '2025-01-25',
      ),
    };
  };
  const noUtility = { ...lowIncomeFamily, utilityGeographyIds: [] };
  const richer = { ...noUtility, household: { ...noUtility.household, income: 90000 } };

  it('is the base calculation itself when no incentive names the territory', () => {
    const { base, widened } = widen(data, noUtility, '02814', 3002);
    expect(widened).toBe(base);
  });

  it('computes again when the territory makes an incentive eligible, relationships included', () => {
    // Rhode Island Energy's RI-2 passes the rules with its territory, but RI-1 excludes it for this family.
    const low = widen(data, noUtility, '02903', 3001);
    expect(low.widened).not.toBe(low.base);
    expect(low.widened.incentives.map((c) => c.id)).toEqual(['RI-1', 'RI-4', 'IRA-1', 'IRA-5', 'IRA-14']);
    const higher = widen(data, richer, '02903', 3001);
    expect(higher.widened.incentives.map((c) => c.id)).toEqual(['RI-2', 'RI-4', 'IRA-1', 'IRA-5', 'IRA-14']);
  });

  it('finds an incentive that only a geo group restricts to the territory', () => {
    const { base, widened } = widen(withGroup, noUtility, '02814', 3002);
    expect(base.incentives.map((c) => c.id)).not.toContain('RI-6');
    expect(widened.incentives.map((c) => c.id)).toContain('RI-6');
  });

  it('answers as a full calculation with the territory, for every fixture ZIP, household and territory', () => {
    for (const dataset of [data, withGroup])
      for (const zip of ['02903', '02814', '57104'])
        for (const household of [noUtility, richer, { ...richer, utilityGeographyIds: [3001] }])
          for (const territory of [3001, 3002]) {
            const { widened, full } = widen(dataset, household, zip, territory);
            expect(widened.incentives).toEqual(full.incentives);
            expect(widened.authorityEntries).toEqual(full.authorityEntries);
          }
  });
});
