import { describe, expect, it } from 'vitest';
import type { Amount } from '../../../../schemas/incentives/records.ts';
import type { PaymentMethod } from '../../../../schemas/incentives/enums.ts';
import { compareIncentives, sortRanks } from '../../../../serve/incentives/eligibility/sorting.ts';

const incentive = (id: string, method: PaymentMethod, amount: Amount) => ({
  id,
  paymentMethods: [method],
  amount,
});

describe('compareIncentives', () => {
  it('orders by payment method, then percent before per-unit before dollars, then larger amounts first', () => {
    const list = [
      incentive('tax-7500', 'tax_credit', { type: 'dollar_amount', number: 7500 }),
      incentive('rebate-500', 'rebate', { type: 'dollar_amount', number: 500 }),
      incentive('tax-30%', 'tax_credit', { type: 'percent', number: 0.3 }),
      incentive('perf-1000', 'performance_rebate', { type: 'dollar_amount', number: 1000 }),
      incentive('pos-2000', 'pos_rebate', { type: 'dollar_amount', number: 2000 }),
      incentive('rebate-ton', 'rebate', { type: 'dollars_per_unit', number: 250, unit: 'ton' }),
      incentive('account-50', 'account_credit', { type: 'dollar_amount', number: 50 }),
      incentive('rebate-1000', 'rebate', { type: 'dollar_amount', number: 1000 }),
    ];
    expect(list.sort(compareIncentives).map((i) => i.id)).toEqual([
      'account-50',
      'pos-2000',
      'perf-1000',
      'rebate-ton',
      'rebate-1000',
      'rebate-500',
      'tax-30%',
      'tax-7500',
    ]);
  });

  it('keeps ties in their original order', () => {
    const list = ['IRA-1', 'IRA-8', 'IRA-15'].map((id) =>
      incentive(id, 'tax_credit', { type: 'percent', number: 0.3 }),
    );
    expect(list.sort(compareIncentives).map((i) => i.id)).toEqual(['IRA-1', 'IRA-8', 'IRA-15']);
  });
});

describe('sortRanks', () => {
  it('ranks items in compareIncentives order, equal-sorting items sharing a rank', () => {
    const list = [
      incentive('tax-7500', 'tax_credit', { type: 'dollar_amount', number: 7500 }),
      incentive('perf-1000', 'performance_rebate', { type: 'dollar_amount', number: 1000 }),
      incentive('pos-1000', 'pos_rebate', { type: 'dollar_amount', number: 1000 }),
      incentive('account-50', 'account_credit', { type: 'dollar_amount', number: 50 }),
      incentive('tax-30%', 'tax_credit', { type: 'percent', number: 0.3 }),
    ];
    // Performance and point-of-sale rebates of the same amount sort equal.
    expect(sortRanks(list)).toEqual([3, 1, 1, 0, 2]);
  });

  it('gives, through a stable sort by rank, the order compareIncentives gives', () => {
    const methods: PaymentMethod[] = ['tax_credit', 'rebate', 'pos_rebate', 'performance_rebate'];
    const types = ['percent', 'dollar_amount', 'dollars_per_unit'] as const;
    const list = Array.from({ length: 60 }, (_, i) =>
      incentive(`i${i}`, methods[(i * 7) % 4]!, { type: types[(i * 5) % 3]!, number: (i * 37) % 5 }),
    );
    const ranks = new Map(list.map((item, i) => [item, sortRanks(list)[i]!]));
    const byRank = [...list].sort((a, b) => ranks.get(a)! - ranks.get(b)!).map((i) => i.id);
    expect(byRank).toEqual([...list].sort(compareIncentives).map((i) => i.id));
  });
});
