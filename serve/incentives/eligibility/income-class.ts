import type { IncentivesData, Location } from '../incentives-data.ts';
import { amiFlags, type AmiFlags } from '../../../schemas/incentives/ami.ts';
import { isLowIncome, type Household } from './low-income.ts';
import { estimateFederalTax, estimateStateTax } from './tax.ts';

/**
 * Where a household's income stands against every income test the calculator can make at a location:
 * the answer's AMI flags (strict `<`), each income limit the location's incentives name (inclusive, by
 * the limit's own rule), and whether the estimated federal and state income tax is zero (tax-credit-only
 * incentives need some). Each test is one threshold; together they place the income between two
 * neighbouring thresholds. The rules see the income only through this, so every income of one class
 * gets the same answer, and the class (with the rest of the request) can name a cached answer.
 */
export interface IncomeClass extends AmiFlags {
  /** Income limit id → whether the household is within it; every limit the location's incentives name. */
  withinLimit: ReadonlyMap<string, boolean>;
  /** An estimate says no tax is owed; false when unknown (no filing status, no model for the state). */
  owesNoFederalTax: boolean;
  owesNoStateTax: boolean;
}

/**
 * The income class of a household at a location whose AMI limits are known. The limits tested are those
 * named by the federal incentives and by the location's state's (whether or not the state's incentives
 * are included in the answer): a test that cannot change the answer only makes classes finer.
 */
export function incomeClass(data: IncentivesData, location: Location, household: Household): IncomeClass {
  const { income, size, taxFiling } = household;
  const ami80 = location.ami80![size - 1]!;
  const ami150 = location.ami150![size - 1]!;
  const incomeLocation = { state: location.state, countyFips: location.counties, ami80, ami150 };
  const withinLimit = new Map<string, boolean>();
  const catalog = data.states.get(location.state);
  for (const ids of catalog
    ? [data.federal.incomeLimitIds, catalog.incomeLimitIds]
    : [data.federal.incomeLimitIds]) {
    for (const id of ids) {
      const threshold = data.thresholds.get(id);
      withinLimit.set(
        id,
        threshold !== undefined && isLowIncome(threshold, household, incomeLocation, data.povertyLevels),
      );
    }
  }
  return {
    ...amiFlags(income, ami80, ami150),
    withinLimit,
    owesNoFederalTax:
      taxFiling !== undefined &&
      estimateFederalTax(data.taxBrackets, location.state, taxFiling, income) === 0,
    owesNoStateTax: taxFiling !== undefined && estimateStateTax(location.state, taxFiling, income) === 0,
  };
}

const bit = (value: boolean) => (value ? '1' : '0');

/**
 * The class as text: one digit per test, limits in the catalogues' order (fixed for a state), so two
 * incomes at one location, household size and filing status have equal keys exactly when equal classes.
 */
export function incomeClassKey(income: IncomeClass): string {
  let key =
    bit(income.is_under_80_ami) +
    bit(income.is_under_150_ami) +
    bit(income.owesNoFederalTax) +
    bit(income.owesNoStateTax);
  for (const within of income.withinLimit.values()) key += bit(within);
  return key;
}
