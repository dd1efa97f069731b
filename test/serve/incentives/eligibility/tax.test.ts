import { describe, expect, it } from 'vitest';
import type { TaxBracketRecord } from '../../../../schemas/incentives/records.ts';
import {
  estimateFederalTax,
  estimateStateTax,
  federalBrackets,
} from '../../../../serve/incentives/eligibility/tax.ts';

// 2025 federal brackets (IRS Rev. Proc. 2024-40), first three rows for single and joint.
const records: TaxBracketRecord[] = [
  { filing_status: 'single', income_min: 0, income_max: 11925, tax_rate: 0.1, standard_deduction: 15000 },
  {
    filing_status: 'single',
    income_min: 11926,
    income_max: 48475,
    tax_rate: 0.12,
    standard_deduction: 15000,
  },
  {
    filing_status: 'single',
    income_min: 48476,
    income_max: 103350,
    tax_rate: 0.22,
    standard_deduction: 15000,
  },
  { filing_status: 'joint', income_min: 0, income_max: 23850, tax_rate: 0.1, standard_deduction: 30000 },
  { filing_status: 'joint', income_min: 23851, income_max: 96950, tax_rate: 0.12, standard_deduction: 30000 },
];
// In reverse: the order the table comes in does not matter.
const brackets = federalBrackets(records.toReversed());

describe('estimateFederalTax', () => {
  it('owes nothing up to the standard deduction, something above it', () => {
    expect(estimateFederalTax(brackets, 'RI', 'single', 15000)).toBe(0);
    expect(estimateFederalTax(brackets, 'RI', 'single', 15001)).toBe(1);
    expect(estimateFederalTax(brackets, 'RI', 'joint', 30000)).toBe(0);
  });

  it('adds each lower bracket in full (rounded to cents) and the current one in part, rounded up', () => {
    // taxable 35000: 11925 × 10% = 1192.50, then (35000 − 11926) × 12% = 2768.88 → 3961.38 → 3962
    expect(estimateFederalTax(brackets, 'CO', 'single', 50000)).toBe(3962);
  });

  it('files a qualifying widow(er) with the joint brackets instead of failing', () => {
    expect(estimateFederalTax(brackets, 'RI', 'qualifying_widower_with_dependent_child', 30000)).toBe(0);
    expect(estimateFederalTax(brackets, 'RI', 'qualifying_widower_with_dependent_child', 80000)).toBe(
      estimateFederalTax(brackets, 'RI', 'joint', 80000),
    );
  });

  it('owes nothing in the territories, and is unknown for a status without brackets', () => {
    expect(estimateFederalTax(brackets, 'PR', 'single', 500000)).toBe(0);
    expect(estimateFederalTax(brackets, 'RI', 'hoh', 50000)).toBeNull();
  });
});

describe('estimateStateTax', () => {
  it('models Colorado, Massachusetts and New Mexico as the reference does', () => {
    expect(estimateStateTax('CO', 'single', 100000)).toBe(4400);
    expect(estimateStateTax('MA', 'single', 104400)).toBe(5000);
    expect(estimateStateTax('MA', 'single', 1187550)).toBe(63158);
    expect(estimateStateTax('MA', 'joint', 8800)).toBe(0);
    expect(estimateStateTax('NM', 'single', 16000)).toBe(505);
    expect(estimateStateTax('NM', 'joint', 315000)).toBe(15027);
  });

  it('is unknown elsewhere', () => {
    expect(estimateStateTax('RI', 'single', 100000)).toBeNull();
  });
});
