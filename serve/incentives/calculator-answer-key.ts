import type { CalculatorQuery } from '../../schemas/incentives/api.ts';
import { incomeClass, incomeClassKey } from './eligibility/income-class.ts';
import type { IncentivesData } from './incentives-data.ts';

/**
 * What names a calculator answer for a ZIP: the validated query (so unknown parameters, spelling variants
 * and defaults given or not drop out), with the income replaced by its income class. The answer is a
 * function of exactly that, so every income of one class shares one cached answer and one ETag. Undefined
 * when the request cannot be named so (an address, or a location the calculator has no income data for):
 * its URL then names it, as for any route.
 */
export function calculatorAnswerKey(data: IncentivesData, query: CalculatorQuery): string | undefined {
  if (query.zip === undefined) return undefined;
  const location = data.locations.get(query.zip);
  if (location === undefined || location.ami80 === null || location.ami150 === null) return undefined;
  const household = {
    income: query.household_income,
    size: query.household_size,
    taxFiling: query.tax_filing,
  };
  return JSON.stringify({
    ...query,
    household_income: incomeClassKey(incomeClass(data, location, household)),
  });
}
