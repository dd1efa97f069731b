import type { Amount } from '../../../schemas/incentives/records.ts';
import type { PaymentMethod } from '../../../schemas/incentives/enums.ts';

export interface Sortable {
  paymentMethods: readonly PaymentMethod[];
  amount: Amount;
}

/** Performance rebates are shown with point-of-sale rebates. */
const paymentGroup = (s: Sortable) =>
  s.paymentMethods[0] === 'performance_rebate' ? 'pos_rebate' : s.paymentMethods[0]!;

/** Code-unit order: the same on every platform and locale. */
export const ascending = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The reference's order: by first payment method (alphabetically, so account credits first and tax
 * credits last), then amount type descending (percent, dollars per unit, dollar amount), then amount
 * descending. Stable, so ties keep their eligibility order.
 */
export function compareIncentives(a: Sortable, b: Sortable): number {
  return (
    ascending(paymentGroup(a), paymentGroup(b)) ||
    ascending(b.amount.type, a.amount.type) ||
    b.amount.number - a.amount.number
  );
}

/**
 * Each item's rank in `compareIncentives` order, items that sort equal sharing a rank. The order depends
 * only on what a candidate is, so ranks are worked out once per snapshot; a stable sort by rank then gives
 * the same order as sorting with `compareIncentives`, at one number comparison per step.
 */
export function sortRanks(items: readonly Sortable[]): number[] {
  const order = items.map((_, index) => index).sort((a, b) => compareIncentives(items[a]!, items[b]!));
  const ranks = new Array<number>(items.length);
  let rank = 0;
  order.forEach((index, position) => {
    if (position > 0 && compareIncentives(items[order[position - 1]!]!, items[index]!) !== 0) rank++;
    ranks[index] = rank;
  });
  return ranks;
}
