import type { Prerequisite } from '../../../schemas/incentives/records.ts';

/** One state's relationship rules, compiled once per snapshot. */
export interface RelationshipRules {
  /** Incentive id → what must be eligible for it to be, in the data's key order. */
  prerequisites: ReadonlyMap<string, Prerequisite>;
  /** Superseding id → ids it excludes while eligible. */
  exclusions: ReadonlyMap<string, readonly string[]>;
  /** Excluded id → ids that supersede it; keys in the order first seen in `exclusions`. */
  supersededBy: ReadonlyMap<string, readonly string[]>;
  /** Id → ids whose prerequisites mention it. */
  dependents: ReadonlyMap<string, readonly string[]>;
}

const mentionedIds = (p: Prerequisite): string[] =>
  typeof p === 'string' ? [p] : 'anyOf' in p ? p.anyOf.flatMap(mentionedIds) : p.allOf.flatMap(mentionedIds);

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

export function compileRelationships(
  prerequisites: Record<string, Prerequisite>,
  exclusions: Record<string, readonly string[]>,
): RelationshipRules {
  const supersededBy = new Map<string, string[]>();
  for (const [superseding, excluded] of Object.entries(exclusions)) {
    for (const id of excluded) push(supersededBy, id, superseding);
  }
  const dependents = new Map<string, string[]>();
  for (const [id, prerequisite] of Object.entries(prerequisites)) {
    for (const required of mentionedIds(prerequisite)) push(dependents, required, id);
  }
  return {
    prerequisites: new Map(Object.entries(prerequisites)),
    exclusions: new Map(Object.entries(exclusions)),
    supersededBy,
    dependents,
  };
}

/**
 * Applies prerequisites, then exclusions, to the eligible incentives (the map is changed in place). An
 * incentive whose prerequisites are unmet, or that is superseded by an eligible one, becomes ineligible;
 * that can cascade to its dependents and can restore what it superseded. An incentive that was not
 * eligible when this step began never comes back. One that leaves and comes back is re-inserted at the
 * end of the map, which moves it after its former neighbours among equal sort keys (as the reference does).
 */
export function applyRelationships<T>(eligible: Map<string, T>, rules: RelationshipRules): void {
  if (rules.prerequisites.size === 0 && rules.exclusions.size === 0) return;
  // Only what this step removes can come back; anything else absent was ineligible before it began.
  const removed = new Map<string, T>();

  const isMet = (p: Prerequisite): boolean =>
    typeof p === 'string' ? eligible.has(p) : 'anyOf' in p ? p.anyOf.some(isMet) : p.allOf.every(isMet);
  const meetsPrerequisites = (id: string) => {
    const p = rules.prerequisites.get(id);
    return p === undefined || isMet(p);
  };
  const isExcluded = (id: string) => (rules.supersededBy.get(id) ?? []).some((s) => eligible.has(s));

  const makeIneligible = (id: string): void => {
    const item = eligible.get(id);
    if (item === undefined) return;
    eligible.delete(id);
    removed.set(id, item);
    for (const dependent of rules.dependents.get(id) ?? []) {
      if (eligible.has(dependent) && !meetsPrerequisites(dependent)) makeIneligible(dependent);
    }
    for (const superseded of rules.exclusions.get(id) ?? []) {
      if (removed.has(superseded) && !isExcluded(superseded) && meetsPrerequisites(superseded)) {
        makeEligible(superseded);
      }
    }
  };
  const makeEligible = (id: string): void => {
    const item = removed.get(id);
    if (item === undefined) return;
    removed.delete(id);
    eligible.set(id, item);
    for (const dependent of rules.dependents.get(id) ?? []) {
      if (removed.has(dependent) && meetsPrerequisites(dependent) && !isExcluded(dependent)) {
        makeEligible(dependent);
      }
    }
    for (const superseded of rules.exclusions.get(id) ?? []) makeIneligible(superseded);
  };

  for (const id of rules.prerequisites.keys()) {
    if (eligible.has(id) && !meetsPrerequisites(id)) makeIneligible(id);
  }
  for (const id of rules.supersededBy.keys()) {
    if (eligible.has(id) && isExcluded(id)) makeIneligible(id);
  }
}
