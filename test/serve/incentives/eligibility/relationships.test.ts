import { describe, expect, it } from 'vitest';
import type { Prerequisite } from '../../../../schemas/incentives/records.ts';
import {
  applyRelationships,
  compileRelationships,
} from '../../../../serve/incentives/eligibility/relationships.ts';

/** The eligible ids after the rules; ids not listed were ineligible before relationships ran. */
function run(
  eligibleIds: string[],
  prerequisites: Record<string, Prerequisite>,
  exclusions: Record<string, string[]>,
) {
  const eligible = new Map(eligibleIds.map((id) => [id, id]));
  applyRelationships(eligible, compileRelationships(prerequisites, exclusions));
  return [...eligible.keys()];
}

describe('applyRelationships', () => {
  it('drops an incentive whose prerequisite is not eligible, and its dependents in turn', () => {
    expect(run(['RI-41', 'RI-42'], { 'RI-41': 'RI-4', 'RI-42': 'RI-41' }, {})).toEqual([]);
    expect(run(['RI-4', 'RI-41', 'RI-42'], { 'RI-41': 'RI-4', 'RI-42': 'RI-41' }, {})).toEqual([
      'RI-4',
      'RI-41',
      'RI-42',
    ]);
  });

  it('evaluates anyOf and allOf, nested', () => {
    const rules = { X: { allOf: ['A', { anyOf: ['B', 'C'] }] } };
    expect(run(['A', 'C', 'X'], rules, {})).toEqual(['A', 'C', 'X']);
    expect(run(['A', 'X'], rules, {})).toEqual(['A']);
    expect(run(['C', 'X'], rules, {})).toEqual(['C']);
  });

  it('drops an incentive superseded by an eligible one', () => {
    expect(run(['RI-30', 'RI-32', 'RI-34'], {}, { 'RI-34': ['RI-30', 'RI-32'] })).toEqual(['RI-34']);
    expect(run(['RI-30', 'RI-32'], {}, { 'RI-34': ['RI-30', 'RI-32'] })).toEqual(['RI-30', 'RI-32']);
  });

  it('lets a superseding incentive that fails its own prerequisite exclude nothing', () => {
    // B supersedes A but needs D, which is ineligible: pass 1 drops B, so pass 2 keeps A in place.
    expect(run(['A', 'E', 'F', 'B'], { B: 'D' }, { B: ['A'] })).toEqual(['A', 'E', 'F']);
  });

  it('re-inserts an incentive that leaves and comes back at the end, which changes tie order', () => {
    // C supersedes A and B supersedes C; pass 2 drops A (C eligible), then C (B eligible), which restores
    // A at the end.
    expect(run(['A', 'B', 'C', 'E'], {}, { C: ['A'], B: ['C'] })).toEqual(['B', 'E', 'A']);
  });

  it('never restores an incentive that was ineligible before relationships ran', () => {
    expect(run(['C', 'B'], {}, { C: ['A'], B: ['C'] })).toEqual(['B']);
  });

  it('leaves everything alone without rules', () => {
    expect(run(['A', 'B'], {}, {})).toEqual(['A', 'B']);
  });
});
