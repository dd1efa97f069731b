import { TERRITORIES } from '../../../schemas/incentives/enums.ts';
import type { FilingStatus } from '../../../schemas/incentives/enums.ts';
import type { TaxBracketRecord } from '../../../schemas/incentives/records.ts';

const roundCents = (amount: number) => Math.round(amount * 100) / 100;

/**
 * The widow(er) status files with the joint brackets and standard deduction (IRS Publication 501); the
 * bracket table has no rows of its own for it. (The reference fails with a 500 here.)
 */
const bracketStatus = (status: FilingStatus): FilingStatus =>
  status === 'qualifying_widower_with_dependent_child' ? 'joint' : status;

/** The federal brackets of each filing status the table has, lowest first. */
export type FederalBrackets = ReadonlyMap<FilingStatus, readonly TaxBracketRecord[]>;

/** The bracket table grouped by filing status and put in order, once per snapshot rather than per request. */
export function federalBrackets(records: readonly TaxBracketRecord[]): FederalBrackets {
  const byStatus = new Map<FilingStatus, TaxBracketRecord[]>();
  for (const record of records) {
    const rows = byStatus.get(record.filing_status) ?? [];
    rows.push(record);
    byStatus.set(record.filing_status, rows);
  }
  for (const rows of byStatus.values()) rows.sort((a, b) => a.income_min - b.income_min);
  return byStatus;
}

/**
 * Estimated federal income tax: income less the standard deduction, through the brackets (each lower
 * bracket's share rounded to cents), rounded up. Only used to tell zero liability from some: residents of
 * the territories owe none. Null if the table has no brackets for the status.
 */
export function estimateFederalTax(
  brackets: FederalBrackets,
  state: string,
  status: FilingStatus,
  income: number,
): number | null {
  if (TERRITORIES.includes(state)) return 0;
  const rows = brackets.get(bracketStatus(status)) ?? [];
  if (rows.length === 0) return null;
  const taxable = Math.max(0, income - rows[0]!.standard_deduction);
  let owed = 0;
  for (const bracket of rows) {
    const top = bracket.income_max ?? Infinity;
    if (taxable > top) {
      owed += roundCents((top - Math.max(bracket.income_min, 1) + 1) * bracket.tax_rate);
    } else {
      if (taxable >= bracket.income_min) owed += (taxable - bracket.income_min) * bracket.tax_rate;
      break;
    }
  }
  return Math.ceil(owed);
}

/** Massachusetts personal exemption by filing status (Mass. DOR, Form 1 instructions, 2024). */
const MA_EXEMPTION: Record<FilingStatus, number> = {
  single: 4400,
  married_filing_separately: 4400,
  hoh: 6800,
  joint: 8800,
  qualifying_widower_with_dependent_child: 8800,
};
/** MA 4% surtax on taxable income above this (Mass. DOR, 2024). */
const MA_SURTAX_THRESHOLD = 1_083_150;

/** New Mexico brackets (upper bounds) by filing status, and the rates (NM TRD, 2025 PIT rates). */
const NM_RATES = [0.017, 0.032, 0.047, 0.049, 0.059];
const NM_BOUNDS: Record<FilingStatus, number[]> = {
  single: [5500, 11000, 16000, 210000],
  married_filing_separately: [4000, 8000, 12000, 157500],
  joint: [8000, 16000, 24000, 315000],
  hoh: [8000, 16000, 24000, 315000],
  qualifying_widower_with_dependent_child: [8000, 16000, 24000, 315000],
};

function newMexicoTax(status: FilingStatus, income: number): number {
  const bounds = NM_BOUNDS[status];
  let owed = 0;
  let floor = 0;
  NM_RATES.forEach((rate, index) => {
    const ceiling = bounds[index] ?? Infinity;
    if (income > floor) owed += (Math.min(income, ceiling) - floor) * rate;
    floor = ceiling;
  });
  return Math.ceil(owed);
}

/**
 * Estimated state income tax where a model exists (CO flat 4.4%, MA 5% above the exemption plus the
 * surtax, NM graduated); null elsewhere, meaning "unknown", which excludes nothing.
 */
export function estimateStateTax(state: string, status: FilingStatus, income: number): number | null {
  switch (state) {
    case 'CO':
      return Math.ceil(income * 0.044);
    case 'MA': {
      const taxable = Math.max(0, income - MA_EXEMPTION[status]);
      return Math.ceil(0.05 * taxable + 0.04 * Math.max(0, taxable - MA_SURTAX_THRESHOLD));
    }
    case 'NM':
      return newMexicoTax(status, income);
    default:
      return null;
  }
}
