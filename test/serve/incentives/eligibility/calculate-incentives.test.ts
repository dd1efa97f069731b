import { beforeAll, describe, expect, it } from 'vitest';
import {
  calculateIncentives,
  candidatesServing,
  type CalculationRequest,
} from '../../../../serve/incentives/eligibility/calculate-incentives.ts';
import { incomeClass } from '../../../../serve/incentives/eligibility/income-class.ts';
import type { Household } from '../../../../serve/incentives/eligibility/low-income.ts';
import type { IncentivesData } from '../../../../serve/incentives/incentives-data.ts';
import { fixtureData } from '../../../support/incentives/fixture-data.ts';

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
  it('keeps file order and only candidates whose authority serves one of the geographies', () => {
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
