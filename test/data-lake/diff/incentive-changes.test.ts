import { describe, expect, it } from 'vitest';
import { amountText } from '../../../data-lake/diff/incentive-changes.ts';

describe('amountText', () => {
  it('reads an amount as a person would', () => {
    expect(amountText({ type: 'dollar_amount', number: 1000 })).toBe('$1,000');
    expect(amountText({ type: 'percent', number: 0.3, maximum: 2000 })).toBe('30 % (up to $2,000)');
    expect(amountText({ type: 'dollars_per_unit', number: 250, unit: 'ton', maximum: 5000 })).toBe(
      '$250 per ton (up to $5,000)',
    );
    expect(amountText({ type: 'dollar_amount', number: 12.5 })).toBe('$12.5');
  });
});
