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
  new RelationshipPass(eligible, rules).run();
}

/** One application of the rules; methods rather than closures, as this runs on every request. */
class RelationshipPass<T> {
  /** Only what this pass removes can come back; anything else absent was ineligible before it began. */
  private readonly removed = new Map<string, T>();

  constructor(
    private readonly eligible: Map<string, T>,
    private readonly rules: RelationshipRules,
  ) {}

  run(): void {
    for (const id of this.rules.prerequisites.keys()) {
      if (this.eligible.has(id) && !this.meetsPrerequisites(id)) this.makeIneligible(id);
    }
    for (const id of this.rules.supersededBy.keys()) {
      if (this.eligible.has(id) && this.isExcluded(id)) this.makeIneligible(id);
    }
  }

  private isMet(p: Prerequisite): boolean {
    if (typeof p === 'string') return this.eligible.has(p);
    if ('anyOf' in p) {
      for (const child of p.anyOf) if (this.isMet(child)) return true;
      return false;
    }
    for (const child of p.allOf) if (!this.isMet(child)) return false;
    return true;
  }

  private meetsPrerequisites(id: string): boolean {
    const p = this.rules.prerequisites.get(id);
    return p === undefined || this.isMet(p);
  }

  private isExcluded(id: string): boolean {
    for (const superseding of this.rules.supersededBy.get(id) ?? [])
      if (this.eligible.has(superseding)) return true;
    return false;
  }

  private makeIneligible(id: string): void {
    const item = this.eligible.get(id);
    if (item === undefined) return;
    this.eligible.delete(id);
    this.removed.set(id, item);
    for (const dependent of this.rules.dependents.get(id) ?? []) {
      if (this.eligible.has(dependent) && !this.meetsPrerequisites(dependent)) this.makeIneligible(dependent);
    }
    for (const superseded of this.rules.exclusions.get(id) ?? []) {
      if (
        this.removed.has(superseded) &&
        !this.isExcluded(superseded) &&
        this.meetsPrerequisites(superseded)
      ) {
        this.makeEligible(superseded);
      }
    }
  }

  private makeEligible(id: string): void {
    const item = this.removed.get(id);
    if (item === undefined) return;
    this.removed.delete(id);
    this.eligible.set(id, item);
    for (const dependent of this.rules.dependents.get(id) ?? []) {
      if (this.removed.has(dependent) && this.meetsPrerequisites(dependent) && !this.isExcluded(dependent)) {
        this.makeEligible(dependent);
      }
    }
    for (const superseded of this.rules.exclusions.get(id) ?? []) this.makeIneligible(superseded);
  }
}
