import { describe, expect, it } from 'vitest';
import type { LowIncomeThresholdRecord } from '../../schemas/incentives/records.ts';
import { isCandidateEligible, type RuleContext } from '../../serve/incentives/eligibility/incentive-rules.ts';
import { candidate } from './support/candidate-fixture.ts';

const thresholds = new Map<string, LowIncomeThresholdRecord>([
  [
    'ri-hear-80ami',
    {
      id: 'ri-hear-80ami',
      type: 'ami-percentage',
      source_url: 'https://energy.ri.gov',
      thresholds: { percentage: 80 },
    },
  ],
]);
// Providence, RI (state geography 40, county 2311), a four-person homeowner household filing jointly.
const providence: RuleContext = {
  state: 'RI',
  geographyIds: [40, 2311],
  ownerStatus: 'homeowner',
  household: { income: 60000, size: 4, taxFiling: 'joint' },
  incomeLocation: { state: 'RI', countyFips: ['44007'], ami80: 64750, ami150: 121400 },
  evChargerEligible: false,
  federalTaxOwed: 3000,
  stateTaxOwed: null,
  today: '2025-01-25',
  thresholds,
  povertyLevels: new Map(),
};

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

  it('drops tax-credit-only incentives when the estimated tax owed is zero, not when it is unknown', () => {
    const credit = candidate({
      id: 'IRA-14',
      authorityType: 'federal',
      authority: null,
      authorityGeographies: null,
      paymentMethods: ['tax_credit'],
    });
    expect(isCandidateEligible(credit, { ...providence, federalTaxOwed: 0 })).toBe(false);
    expect(isCandidateEligible(credit, { ...providence, federalTaxOwed: null })).toBe(true);
    const stateCredit = candidate({ id: 'CO-1', paymentMethods: ['tax_credit'] });
    expect(isCandidateEligible(stateCredit, { ...providence, stateTaxOwed: 0 })).toBe(false);
    const mixed = candidate({ id: 'CO-2', paymentMethods: ['tax_credit', 'rebate'] });
    expect(isCandidateEligible(mixed, { ...providence, stateTaxOwed: 0 })).toBe(true);
  });

  it('applies the income limit; an unknown limit id never qualifies', () => {
    expect(isCandidateEligible(candidate({ id: 'RI-6', lowIncome: 'ri-hear-80ami' }), providence)).toBe(true);
    const richer = { ...providence, household: { ...providence.household, income: 70000 } };
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
