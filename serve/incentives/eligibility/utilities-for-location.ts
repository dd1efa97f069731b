import type { Location, StateCatalog } from '../incentives-data.ts';

export interface UtilitiesAnswer {
  location: { state: string };
  utilities: Record<string, { name: string }>;
  /** Absent when the state has no gas territories in the data at all. */
  gas_utilities?: Record<string, { name: string }>;
  gas_utility_affects_incentives?: boolean;
}

/**
 * The electric (and, where the state has gas territories, gas) utilities serving a location, predominant
 * first, named as in the geography data. Launch status does not matter here (as upstream).
 */
export function utilitiesForLocation(location: Location, catalog: StateCatalog | undefined): UtilitiesAnswer {
  const named = (keys: readonly string[], byKey: StateCatalog['electricUtilities'] | undefined) =>
    Object.fromEntries(
      keys.flatMap((key) => (byKey?.has(key) ? [[key, { name: byKey.get(key)!.name }]] : [])),
    );
  const answer: UtilitiesAnswer = {
    location: { state: location.state },
    utilities: named(location.electricUtilities, catalog?.electricUtilities),
  };
  if (catalog && catalog.gasUtilities.size > 0) {
    answer.gas_utilities = named(location.gasUtilities, catalog.gasUtilities);
    answer.gas_utility_affects_incentives = catalog.gasUtilityAffectsIncentives;
  }
  return answer;
}
