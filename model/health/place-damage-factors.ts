import {
  HEALTH_POLLUTANTS,
  damageFactorFor,
  type CountyGeography,
  type DamageFactor,
  type EmissionSector,
  type HealthPollutant,
  type PlaceDamageFactor,
  type PowerPlant,
} from '../../schemas/health-data.ts';
import type { EmissionFactor, HeatingFuelShares } from '../../schemas/rem-data.ts';
import { FUEL_ENERGY_UNITS } from '../savings/fuel-prices.ts';
import { emissionFactorsFor, singleFamilyHouseholds } from './county-rollup.ts';
import {
  countyExposures,
  distanceKm,
  exposureGroupOf,
  redistribute,
  type CountyExposure,
} from './exposure.ts';
import { multiFamilyRatio } from './multi-family.ts';

/**
 * Deaths per tonne by place (lake table `health_place_damage_factors`): EPA's figures (or a state's own row
 * of the damage-factor table) spread over the places whose tonnes they price, by exposure, keeping the
 * emissions-weighted mean of every sector × pollutant × estimate equal to the figure (exposure.ts).
 * - Homes: per county, by the county's exposure index; emissions weighted by its fossil-heated households.
 * - Power plants: per state, by the exposure of where the state's fossil generation is (each plant at its
 *   nearest county, by that county's regional term only: tall stacks disperse beyond the county), weighted
 *   by the state's generation times its emission rate. A state with no fossil generation takes the figure.
 */

export interface PlaceFactorCounty {
  county_fips: string;
  state: string;
  latitude: number;
  longitude: number;
  households: number;
  multi_unit_share: number;
  heating_fuel_shares: HeatingFuelShares;
  multi_family_heating_fuel_shares: HeatingFuelShares;
}

export interface PlaceFactorInputs {
  counties: readonly PlaceFactorCounty[];
  geography: readonly CountyGeography[];
  plants: readonly PowerPlant[];
  damageFactors: readonly DamageFactor[];
  emissionFactors: readonly EmissionFactor[];
}

const FOSSIL = ['natural_gas', 'fuel_oil', 'propane'] as const;
/** A multi-family household's share of a single-family one's heating fuel (all-electric end uses, RECS). */
const MULTI_FAMILY_WEIGHT = multiFamilyRatio('combination__all_electric__hvac_seer24_hspf13__weatherization');

export function placeDamageFactors(inputs: PlaceFactorInputs): PlaceDamageFactor[] {
  const geography = new Map(inputs.geography.map((g) => [g.county_fips, g]));
  const located = inputs.counties.filter((c) => geography.has(c.county_fips));
  const exposures = countyExposures(
    located.map((c) => ({
      county_fips: c.county_fips,
      latitude: c.latitude,
      longitude: c.longitude,
      population: geography.get(c.county_fips)!.population,
      land_area_km2: geography.get(c.county_fips)!.land_area_km2,
      households: c.households,
    })),
  );
  return [...homeFactors(inputs, exposures), ...powerFactors(inputs, located, exposures)];
}

/** Per county and pollutant: the county's index and its homes' yearly emissions (kg per kWh of fuel burnt). */
function homeFactors(
  inputs: PlaceFactorInputs,
  exposures: ReadonlyMap<string, CountyExposure>,
): PlaceDamageFactor[] {
  const emissionsOf = emissionWeigher(inputs.emissionFactors);
  return spread(
    'residential_combustion',
    inputs,
    inputs.counties.map((county) => ({
      state: county.state,
      county_fips: county.county_fips,
      exposure: exposures.get(county.county_fips) ?? null,
      index: (exposure: CountyExposure, pollutant: HealthPollutant) => exposure[exposureGroupOf(pollutant)],
      emissions: (pollutant: HealthPollutant) => emissionsOf(county, pollutant),
      basis: 'county_population_exposure',
    })),
  );
}

/** Yearly on-site emissions of a county's fossil-heated homes, in relative units (equal energy per home). */
function emissionWeigher(emissionFactors: readonly EmissionFactor[]) {
  const byState = new Map<string, ReturnType<typeof emissionFactorsFor>['factors']>();
  return (county: PlaceFactorCounty, pollutant: HealthPollutant): number => {
    let factors = byState.get(county.state);
    if (!factors)
      byState.set(county.state, (factors = emissionFactorsFor(county.state, emissionFactors).factors));
    const kgPerKwh = (shares: HeatingFuelShares) =>
      FOSSIL.reduce(
        (sum, fuel) =>
          sum +
          (shares[fuel] * factors.onsiteKgPerUnit[fuel][pollutant]) / FUEL_ENERGY_UNITS[fuel].kwhPerUnit,
        0,
      );
    const single = singleFamilyHouseholds(county);
    return (
      single * kgPerKwh(county.heating_fuel_shares) +
      (county.households - single) * MULTI_FAMILY_WEIGHT * kgPerKwh(county.multi_family_heating_fuel_shares)
    );
  };
}

/** Per state and pollutant: the generation-weighted exposure of its fossil plants and their emissions. */
function powerFactors(
  inputs: PlaceFactorInputs,
  counties: readonly PlaceFactorCounty[],
  exposures: ReadonlyMap<string, CountyExposure>,
): PlaceDamageFactor[] {
  const fleets = new Map<string, { generation: number; weighted: number }>();
  for (const plant of inputs.plants) {
    if (plant.generation_gwh === null || plant.generation_gwh <= 0) continue;
    const county = nearestCounty(counties, plant.latitude, plant.longitude);
    if (!county) continue;
    const fleet = fleets.get(county.state) ?? { generation: 0, weighted: 0 };
    fleet.generation += plant.generation_gwh;
    fleet.weighted += plant.generation_gwh * exposures.get(county.county_fips)!.regional;
    fleets.set(county.state, fleet);
  }
  const states = [...new Set(inputs.counties.map((c) => c.state))].sort();
  return spread(
    'electricity_generation',
    inputs,
    states.map((state) => {
      const fleet = fleets.get(state);
      const rates = emissionFactorsFor(state, inputs.emissionFactors).factors.powerKgPerKwh;
      return {
        state,
        county_fips: null,
        exposure: fleet ? { regional: fleet.weighted / fleet.generation } : null,
        index: (exposure: { regional: number }) => exposure.regional,
        emissions: (pollutant: HealthPollutant) => (fleet?.generation ?? 0) * rates[pollutant],
        basis: 'state_fossil_generation',
      };
    }),
  );
}

/** The county whose centroid is nearest a point, if any lies within 100 km (a plant off the map is left out). */
function nearestCounty<C extends Pick<PlaceFactorCounty, 'latitude' | 'longitude'>>(
  counties: readonly C[],
  latitude: number,
  longitude: number,
): C | undefined {
  let best: C | undefined;
  let bestKm = 100;
  for (const county of counties) {
    if (Math.abs(county.latitude - latitude) > 1.5) continue;
    const km = distanceKm(latitude, longitude, county.latitude, county.longitude);
    if (km < bestKm) [best, bestKm] = [county, km];
  }
  return best;
}

interface Place<Exposure> {
  state: string;
  county_fips: string | null;
  /** Null: no exposure could be worked out, the place takes the figure as it is. */
  exposure: Exposure | null;
  index: (exposure: Exposure, pollutant: HealthPollutant) => number;
  emissions: (pollutant: HealthPollutant) => number;
  basis: PlaceDamageFactor['basis'];
}

/**
 * For each pollutant: the places priced by the same damage-factor row (a state's own, or the national one)
 * share its figure, spread by their index with their emissions as weights, for both estimates.
 */
function spread<Exposure>(
  sector: EmissionSector,
  inputs: PlaceFactorInputs,
  places: readonly Place<Exposure>[],
): PlaceDamageFactor[] {
  const rows: PlaceDamageFactor[] = [];
  for (const pollutant of HEALTH_POLLUTANTS) {
    const groups = new Map<DamageFactor, Place<Exposure>[]>();
    for (const place of places) {
      const factor = damageFactorFor(inputs.damageFactors, place.state, sector, pollutant);
      if (!factor) continue; // the damage-factor audit names what no row covers
      groups.set(factor, [...(groups.get(factor) ?? []), place]);
    }
    for (const [factor, members] of groups) {
      const placed = members.filter((p) => p.exposure !== null);
      const weights = placed.map((p) => ({
        index: p.index(p.exposure!, pollutant),
        emissions: p.emissions(pollutant),
      }));
      const central = redistribute(factor.deaths_per_tonne, weights);
      const low = redistribute(factor.deaths_per_tonne_low, weights);
      members.forEach((place) => {
        const i = placed.indexOf(place);
        rows.push({
          sector,
          state: place.state,
          county_fips: place.county_fips,
          pollutant,
          deaths_per_tonne: i < 0 ? factor.deaths_per_tonne : central[i]!,
          deaths_per_tonne_low: i < 0 ? factor.deaths_per_tonne_low : low[i]!,
          exposure_index: i < 0 ? null : weights[i]!.index,
          emissions_weight: place.emissions(pollutant),
          source_region: factor.region,
          basis: i < 0 ? 'national' : place.basis,
        });
      });
    }
  }
  return rows;
}
