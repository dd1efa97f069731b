import { describe, expect, it } from 'vitest';
import { REFERENCE_SHAPES, firstDifference, keepReferenceProperties } from './compare.ts';
import { queryString } from './cases.ts';

describe('keepReferenceProperties', () => {
  it('drops what the reference schema does not define, at every level', () => {
    const actual = {
      is_under_80_ami: true,
      location: { state: 'RI', city: 'Providence', county_fips: '44007' },
      authorities: { 'ri-oer': { name: 'OER', extra: 1 } },
      incentives: [{ id: 'RI-1', program: 'P', amount: { type: 'dollar_amount', number: 1, minimum: 0 } }],
      total: 5,
    };
    expect(keepReferenceProperties(actual, REFERENCE_SHAPES.calculator)).toEqual({
      is_under_80_ami: true,
      location: { state: 'RI' },
      authorities: { 'ri-oer': { name: 'OER' } },
      incentives: [{ program: 'P', amount: { type: 'dollar_amount', number: 1 } }],
    });
  });
});

describe('firstDifference', () => {
  it('ignores key order but not array order, and names the first difference', () => {
    expect(firstDifference({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBeNull();
    expect(firstDifference({ b: [2, 1] }, { b: [1, 2] })).toBe('$.b[0]: got 2, expected 1');
    expect(firstDifference({ a: 1 }, { a: 1, gas: {} })).toBe('$.gas: got undefined, expected {}');
  });
});

describe('queryString', () => {
  it('sends arrays comma-separated, null as an empty value, and leaves {} out', () => {
    expect(
      queryString({ zip: null, owner: {}, authority_types: ['state', 'utility'], household_size: 4 }),
    ).toBe('zip=&authority_types=state,utility&household_size=4');
  });
});
