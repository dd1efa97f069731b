import type { OwnerStatus } from '../../../schemas/incentives/enums.ts';
import type { LowIncomeThresholdRecord } from '../../../schemas/incentives/records.ts';
import type { Candidate } from './candidate.ts';
import { isLowIncome, type Household, type IncomeLocation, type PovertyLevels } from './low-income.ts';

/** The federal program whose credit depends on the location's 30C (EV charger) eligibility. */
export const EV_CHARGER_CREDIT_PROGRAM = 'alternativeFuelVehicleRefuelingPropertyCredit';

export interface RuleContext {
  state: string;
  /** Every geography of the location, including the requested utility territories. */
  geographyIds: readonly number[];
  ownerStatus: OwnerStatus;
  household: Household;
  incomeLocation: IncomeLocation;
  evChargerEligible: boolean;
  /** Estimated tax owed; null when unknown (no filing status, or no model for the state). */
  federalTaxOwed: number | null;
  stateTaxOwed: number | null;
  today: string;
  thresholds: ReadonlyMap<string, LowIncomeThresholdRecord>;
  povertyLevels: PovertyLevels;
}

function overlaps(ids: readonly number[], set: ReadonlySet<number>): boolean {
  for (const id of ids) if (set.has(id)) return true;
  return false;
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
    const owed = candidate.authorityType === 'federal' ? ctx.federalTaxOwed : ctx.stateTaxOwed;
    if (owed === 0) return false;
  }
  if (candidate.lowIncome !== null) {
    const threshold = ctx.thresholds.get(candidate.lowIncome);
    if (!threshold || !isLowIncome(threshold, ctx.household, ctx.incomeLocation, ctx.povertyLevels))
      return false;
  }
  if (candidate.lastDay !== null && ctx.today > candidate.lastDay) return false;
  return true;
}
