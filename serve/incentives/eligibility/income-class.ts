import type { LowIncomeThresholdRecord } from '../../../schemas/incentives/records.ts';
import type { IncentivesData, Location, StateCatalog } from '../incentives-data.ts';
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
  /** Every income limit the location's incentives name, in a fixed order. */
  limits: IncomeLimits;
  /** Per limit of `limits`, in its order: whether the household is within it. */
  within: readonly boolean[];
  /** An estimate says no tax is owed; false when unknown (no filing status, no model for the state). */
  owesNoFederalTax: boolean;
  owesNoStateTax: boolean;
}

/** Income limit ids in a fixed order, and each id's position in it. */
export interface IncomeLimits {
  ids: readonly string[];
  positions: ReadonlyMap<string, number>;
}

/** The limits `ids` name, once each, in the order first named. */
export function incomeLimits(ids: readonly string[]): IncomeLimits {
  const unique = [...new Set(ids)];
  return { ids: unique, positions: new Map(unique.map((id, position) => [id, position])) };
}

/** Whether the household is within the limit `id`; never for a limit its location's incentives do not name. */
export function isWithinLimit(income: IncomeClass, id: string): boolean {
  const position = income.limits.positions.get(id);
  return position !== undefined && income.within[position] === true;
}

/** A state's limits (the federal ones, then its own) and their threshold records, worked out once per catalog. */
interface LimitTests {
  limits: IncomeLimits;
  thresholds: readonly (LowIncomeThresholdRecord | undefined)[];
}

const limitTestsOfCatalog = new WeakMap<StateCatalog, LimitTests>();

function limitTestsAt(data: IncentivesData, state: string): LimitTests {
  const catalog = data.states.get(state) ?? data.federal;
  let tests = limitTestsOfCatalog.get(catalog);
  if (tests === undefined) {
    const limits = incomeLimits(
      catalog === data.federal
        ? data.federal.incomeLimitIds
        : [...data.federal.incomeLimitIds, ...catalog.incomeLimitIds],
    );
    tests = { limits, thresholds: limits.ids.map((id) => data.thresholds.get(id)) };
    limitTestsOfCatalog.set(catalog, tests);
  }
  return tests;
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
  const { limits, thresholds } = limitTestsAt(data, location.state);
  const within = thresholds.map(
    (threshold) =>
      threshold !== undefined && isLowIncome(threshold, household, incomeLocation, data.povertyLevels),
  );
  const flags = amiFlags(income, ami80, ami150);
  // Fields named one by one: an object spread and then added to took some 2 µs here (V8's slow path),
  // most of a calculator request's naming.
  return {
    is_under_80_ami: flags.is_under_80_ami,
    is_under_150_ami: flags.is_under_150_ami,
    is_over_150_ami: flags.is_over_150_ami,
    limits,
    within,
    owesNoFederalTax:
      taxFiling !== undefined &&
      estimateFederalTax(data.taxBrackets, location.state, taxFiling, income) === 0,
    owesNoStateTax: taxFiling !== undefined && estimateStateTax(location.state, taxFiling, income) === 0,
  };
}

const bit = (value: boolean) => (value ? '1' : '0');

/**
 * The class as text: one digit per test, limits in the catalogs' order (fixed for a state), so two
 * incomes at one location, household size and filing status have equal keys exactly when equal classes.
 */
export function incomeClassKey(income: IncomeClass): string {
  let key =
    bit(income.is_under_80_ami) +
    bit(income.is_under_150_ami) +
    bit(income.owesNoFederalTax) +
    bit(income.owesNoStateTax);
  for (const within of income.within) key += bit(within);
  return key;
}
