import { describe, expect, it } from 'vitest';
import { closestIds } from '../../../serve/incentives/closest-ids.ts';

const MA = ['ma-eversource', 'ma-national-grid', 'ma-unitil', 'ma-town-of-concord'];

describe('closestIds', () => {
  it('suggests the ids that contain what was typed, as a utility named without its state prefix', () => {
    expect(closestIds('eversource', MA)).toEqual(['ma-eversource']);
    expect(closestIds('GRID', MA)).toEqual(['ma-national-grid']);
  });

  it('suggests ids a few typing slips away, nearest first', () => {
    expect(closestIds('ma-eversorce', MA)).toEqual(['ma-eversource']);
    expect(closestIds('ma-unitl', ['mb-unitol', 'ma-eversource', 'ma-unitil'])).toEqual([
      'ma-unitil',
      'mb-unitol',
    ]);
  });

  it('suggests nothing for a name unlike any id, or an empty one', () => {
    expect(closestIds('pacific-gas', MA)).toEqual([]);
    expect(closestIds('  ', MA)).toEqual([]);
    expect(closestIds('eversource', [])).toEqual([]);
  });

  it('gives at most three, in a stable order', () => {
    expect(closestIds('ma', MA)).toEqual(['ma-eversource', 'ma-national-grid', 'ma-town-of-concord']);
  });
});
