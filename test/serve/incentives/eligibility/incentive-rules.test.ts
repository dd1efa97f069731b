import { describe, expect, it } from 'vitest';
import { incomeLimits, type IncomeClass } from '../../../../serve/incentives/eligibility/income-class.ts';
import {
  isCandidateEligible,
  type RuleContext,
} from '../../../../serve/incentives/eligibility/incentive-rules.ts';
import { candidate } from '../../../support/incentives/candidate-fixture.ts';

// A four-person household filing jointly on $60,000 in Providence: under 80% AMI (64,750), within the
// RI HEAR low-income limit, owing federal tax; RI has no state tax model.
const under80Ami: IncomeClass = {
  is_under_80_ami: true,
  is_under_150_ami: true,
  is_over_150_ami: false,
  limits: incomeLimits(['ri-hear-80ami']),
  within: [true],
  owesNoFederalTax: false,
  owesNoStateTax: false,
};
// Providence, RI (state geography 40, county 2311), a homeowner.
const providence: RuleContext = {
  state: 'RI',
  geographyIds: [40, 2311],
  ownerStatus: 'homeowner',
  income: under80Ami,
  evChargerEligible: false,
  today: '2025-01-25',
};
const withIncome = (income: Partial<IncomeClass>): RuleContext => ({
  ...providence,
  income: { ...under80Ami, ...income },
});

describe('isCandidateEligible', () => {
  it('accepts an incentive that passes every rule', () => {
    expect(isCandidateEligible(candidate({ id: 'RI-1' }), providence)).toBe(true);
  });

  it('requires the authority to serve one of the location’s geographies (none to check for federal)', () => {
    expect(
      isCandidateEligible(candidate({ id: 'RI-2', authorityGeographies: new Set([3590]) }), providence),
    ).toBe(false);
    expect(
      isCandidateEligible(
        candidate({ id: 'IRA-1', authorityType: 'federal', authority: null, authorityGeographies: null }),
        providence,
      ),
    ).toBe(true);
  });

  it('requires the geo group, when there is one, to cover the location', () => {
    expect(isCandidateEligible(candidate({ id: 'RI-3', geoGroup: new Set([2311]) }), providence)).toBe(true);
    expect(isCandidateEligible(candidate({ id: 'RI-4', geoGroup: new Set() }), providence)).toBe(false);
  });

  it('drops the federal energy-audit-only credit in Massachusetts', () => {
    const audit = candidate({
      id: 'IRA-19',
      authorityType: 'federal',
      authority: null,
      authorityGeographies: null,
      items: ['energy_audit'],
    });
    expect(isCandidateEligible(audit, providence)).toBe(true);
    expect(isCandidateEligible(audit, { ...providence, state: 'MA' })).toBe(false);
  });

  it('gives the EV charger credit only where the location is 30C-eligible', () => {
    const charger = candidate({
      id: 'IRA-5',
      programId: 'alternativeFuelVehicleRefuelingPropertyCredit',
      authorityType: 'federal',
      authority: null,
      authorityGeographies: null,
    });
    expect(isCandidateEligible(charger, providence)).toBe(false);
    expect(isCandidateEligible(charger, { ...providence, evChargerEligible: true })).toBe(true);
  });

  it('checks owner status', () => {
    expect(isCandidateEligible(candidate({ id: 'RI-5' }), { ...providence, ownerStatus: 'renter' })).toBe(
      false,
    );
  });

  it('drops tax-credit-only incentives when an estimate says no tax is owed', () => {
    const credit = candidate({
      id: 'IRA-14',
      authorityType: 'federal',
      authority: null,
      authorityGeographies: null,
      paymentMethods: ['tax_credit'],
    });
    expect(isCandidateEligible(credit, withIncome({ owesNoFederalTax: true }))).toBe(false);
    expect(isCandidateEligible(credit, withIncome({ owesNoStateTax: true }))).toBe(true);
    expect(isCandidateEligible(credit, providence)).toBe(true);
    const stateCredit = candidate({ id: 'CO-1', paymentMethods: ['tax_credit'] });
    expect(isCandidateEligible(stateCredit, withIncome({ owesNoStateTax: true }))).toBe(false);
    const mixed = candidate({ id: 'CO-2', paymentMethods: ['tax_credit', 'rebate'] });
    expect(isCandidateEligible(mixed, withIncome({ owesNoStateTax: true }))).toBe(true);
  });

  it('applies the income limit as the income class places the household; a limit it lacks never qualifies', () => {
    expect(isCandidateEligible(candidate({ id: 'RI-6', lowIncome: 'ri-hear-80ami' }), providence)).toBe(true);
    const richer = withIncome({ within: [false] });
    expect(isCandidateEligible(candidate({ id: 'RI-6', lowIncome: 'ri-hear-80ami' }), richer)).toBe(false);
    expect(isCandidateEligible(candidate({ id: 'RI-7', lowIncome: 'no-such-limit' }), providence)).toBe(
      false,
    );
  });

  it('keeps an incentive through its last day', () => {
    expect(isCandidateEligible(candidate({ id: 'RI-8', lastDay: '2025-01-25' }), providence)).toBe(true);
    expect(isCandidateEligible(candidate({ id: 'RI-8', lastDay: '2025-01-24' }), providence)).toBe(false);
  });
});
