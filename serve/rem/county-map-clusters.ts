import { forEachInSlices, MICROSECOND_STEPS } from '../../lib/time-slices.ts';
import { clusterId } from '../../schemas/rem-data.ts';
import { FUELS, type Fuel } from '../../schemas/rem.ts';
import type { ClusterStatisticsStore } from './cluster-statistics-store.ts';

/** A county map row whose cluster the snapshot did not precompute: the map leaves the county out. */
export const NOT_PRECOMPUTED = -3;
/** Precomputed, and the fuels are too rare in the county to estimate (building_not_supported). */
export const NOT_SUPPORTED = -2;
/** Precomputed as supported, with no statistics in the store. */
export const NO_STATISTICS = -1;

/** The fuels a county map is drawn for: a heating fuel and a water-heater fuel (null: none given). */
export const mapFuels = (heatingFuel: Fuel, waterHeaterFuel: Fuel | null): string =>
  `${heatingFuel}|${waterHeaterFuel ?? '-'}`;

/**
 * For every pair of fuels (`mapFuels`), the cluster of each county of the map (`fips`, in the map's order):
 * its position in the store, or one of the codes above. Found once per snapshot, in slices of the event
 * loop: looked up by id for every request, a national map's 3,100 counties took 6 ms of it.
 */
export async function countyMapClusters(
  fips: readonly string[],
  support: ReadonlyMap<string, boolean>,
  statistics: ClusterStatisticsStore,
): Promise<ReadonlyMap<string, Int32Array>> {
  const byFuels = new Map<string, Int32Array>();
  for (const heating_fuel of FUELS) {
    for (const water_heater_fuel of [...FUELS, null]) {
      const clusters = new Int32Array(fips.length);
      await forEachInSlices(
        fips.length,
        (row) => {
          const id = clusterId({ county_fips: fips[row]!, heating_fuel, water_heater_fuel });
          const supported = support.get(id);
          clusters[row] =
            supported === undefined
              ? NOT_PRECOMPUTED
              : supported
                ? (statistics.positionOf(id) ?? NO_STATISTICS)
                : NOT_SUPPORTED;
        },
        MICROSECOND_STEPS,
      );
      byFuels.set(mapFuels(heating_fuel, water_heater_fuel), clusters);
    }
  }
  return byFuels;
}
