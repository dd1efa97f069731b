import { calculatorQuerySchema } from '../../schemas/incentives/api.ts';
import type { FilingStatus } from '../../schemas/incentives/enums.ts';
import { incomeClass, incomeClassKey } from './eligibility/income-class.ts';
import type { IncentivesData } from './incentives-data.ts';
import { coerceQuery } from '../http/query-validation.ts';

const field = calculatorQuerySchema.shape;
const valid = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

/**
 * What names a calculator answer for a ZIP: the query as validation reads it (parsed and coerced, so
 * unknown parameters and spelling variants drop out), with the income replaced by its income class.
 * The answer is a function of exactly that, so every income of one class shares one cached answer and
 * one ETag. Undefined when the request cannot be named so (an address, or a household or location the
 * calculator refuses): its URL then names it, as for any route. A space, which no request URL holds,
 * keeps these names apart from URLs.
 */
export function calculatorAnswerKey(
  data: IncentivesData,
  query: Record<string, unknown>,
): string | undefined {
  const coerced = coerceQuery(query, calculatorQuerySchema);
  const { zip, household_income: income, household_size: size, tax_filing: taxFiling } = coerced;
  if (typeof zip !== 'string' || coerced.address !== undefined) return undefined;
  if (!valid(field.household_income, income) || !valid(field.household_size, size)) return undefined;
  if (!valid(field.tax_filing, taxFiling)) return undefined;
  const location = data.locations.get(zip);
  if (location === undefined || location.ami80 === null || location.ami150 === null) return undefined;
  const household = { income: income as number, size: size as number, taxFiling: taxFiling as FilingStatus };
  const key = incomeClassKey(incomeClass(data, location, household));
  return `/api/v1/calculator ${JSON.stringify({ ...coerced, household_income: key })}`;
}
