import type { OwnerStatus } from '../../../schemas/incentives/enums.ts';
import type { Candidate } from './candidate.ts';
import { isWithinLimit, type IncomeClass } from './income-class.ts';

/** The federal program whose credit depends on the location's 30C (EV charger) eligibility. */
export const EV_CHARGER_CREDIT_PROGRAM = 'alternativeFuelVehicleRefuelingPropertyCredit';

export interface RuleContext {
  state: string;
  /** Every geography of the location, including the requested utility territories. */
  geographyIds: readonly number[];
  ownerStatus: OwnerStatus;
  /** The household's income class: the rules never read the income itself. */
  income: IncomeClass;
  evChargerEligible: boolean;
  today: string;
}

function overlaps(ids: readonly number[], set: ReadonlySet<number>): boolean {
  for (const id of ids) if (set.has(id)) return true;
  return false;
}

/**
 * Whether adding a geography to the context's can change the incentive's eligibility: one of its two
 * geography tests (authority, geo group) names the geography and fails without it. The other rules do
 * not read geographies, so for any other incentive the answer with the geography is the answer without.
 */
export function geographyMayAdmit(candidate: Candidate, ctx: RuleContext, geographyId: number): boolean {
  const opens = (ids: ReadonlySet<number> | null) =>
    ids !== null && ids.has(geographyId) && !overlaps(ctx.geographyIds, ids);
  return opens(candidate.authorityGeographies) || opens(candidate.geoGroup);
}

/**
 * Whether one incentive applies, by the reference's rules in its order: the authority serves the
 * location; the geo group covers it; not the federal energy audit credit in MA (Mass Save audits are
 * free there); the 30C location test; owner status; some tax liability for credit-only incentives;
 * income limit; not expired. Start dates and `paused` are not checked (as upstream).
 */
export function isCandidateEligible(candidate: Candidate, ctx: RuleContext): boolean {
  if (
    candidate.authorityGeographies !== null &&
    !overlaps(ctx.geographyIds, candidate.authorityGeographies)
  ) {
    return false;
  }
  if (candidate.geoGroup !== null && !overlaps(ctx.geographyIds, candidate.geoGroup)) return false;
  if (
    ctx.state === 'MA' &&
    candidate.authorityType === 'federal' &&
    candidate.items.length === 1 &&
    candidate.items[0] === 'energy_audit'
  ) {
    return false;
  }
  if (candidate.programId === EV_CHARGER_CREDIT_PROGRAM && !ctx.evChargerEligible) return false;
  if (!candidate.ownerStatus.includes(ctx.ownerStatus)) return false;
  if (candidate.paymentMethods.length === 1 && candidate.paymentMethods[0] === 'tax_credit') {
    const owesNone =
      candidate.authorityType === 'federal' ? ctx.income.owesNoFederalTax : ctx.income.owesNoStateTax;
    if (owesNone) return false;
  }
  if (candidate.lowIncome !== null && !isWithinLimit(ctx.income, candidate.lowIncome)) return false;
  if (candidate.lastDay !== null && ctx.today > candidate.lastDay) return false;
  return true;
}
