import {
  HEALTH_POLLUTANTS,
  type CountyGeography,
  type DamageFactor,
  type HealthBinDelta,
  type HealthPollutant,
  type PowerPlant,
} from '../../schemas/health-data.ts';
import {
  countyEmissionFactors,
  DEFAULT_GRID_EMISSIONS,
  type EmissionFactor,
  type EnergyRate,
  type GridEmissions,
  type GridGeneration,
  type LrmerProfile,
  type RemCountyRow,
} from '../../schemas/rem-data.ts';
import {
  emissionFactorsFor,
  type DeathsPerTonne,
  type HealthFactors,
} from '../../model/health/county-rollup.ts';
import { placeDamageFactors } from '../../model/health/place-damage-factors.ts';
import { fuelPricesFor, type FuelPrices } from '../../model/savings/fuel-prices.ts';
import { gridEmissionFactors, gridRegionRows } from '../../transform/tables/rem/long-run-grid.ts';
import { defaultRemCounties, defaultSourceRecords } from './default-source-records.ts';

/** What the national health rollup needs of the project's default sources, for each county. */
export interface NationalHealthInputs {
  counties: RemCountyRow[];
  /** The county's prices and CO2e factors on the default grid basis, as its work units have them. */
  pricesOf(county: RemCountyRow): FuelPrices;
  /** The county's emission rates on both grid bases and deaths per tonne where its tonnes fall. */
  factorsOf(county: RemCountyRow): HealthFactors;
}

/**
 * The default sources turned into the rollup's inputs as the pipeline's tables turn them (rem_counties,
 * rem_grid_emission_factors, health_place_damage_factors), without running the pipeline.
 */
export async function nationalHealthInputs(): Promise<NationalHealthInputs> {
  const counties = await defaultRemCounties();
  const rates = await defaultSourceRecords<EnergyRate>('energy-rates');
  const emissionFactors = await defaultSourceRecords<EmissionFactor>('emission-factors');
  const gridFactors = gridEmissionFactors(
    counties,
    gridRegionRows(
      await defaultSourceRecords<LrmerProfile>('long-run-emission-rates'),
      await defaultSourceRecords<GridGeneration>('grid-generation'),
    ),
    emissionFactors,
  );
  const places = placeDamageFactors({
    counties,
    geography: await defaultSourceRecords<CountyGeography>('county-geography'),
    plants: await defaultSourceRecords<PowerPlant>('power-plants'),
    damageFactors: await defaultSourceRecords<DamageFactor>('damage-factors'),
    emissionFactors,
  });
  const byPlace = new Map(places.map((f) => [`${f.sector}/${f.county_fips ?? f.state}/${f.pollutant}`, f]));
  const deathsAt = (sector: string, place: string) =>
    Object.fromEntries(
      HEALTH_POLLUTANTS.map((p) => {
        const f = byPlace.get(`${sector}/${place}/${p}`)!;
        return [p, { central: f.deaths_per_tonne, low: f.deaths_per_tonne_low }];
      }),
    ) as Record<HealthPollutant, DeathsPerTonne>;
  const onBasis = (county: RemCountyRow, basis: GridEmissions) =>
    countyEmissionFactors(county, basis, emissionFactors, gridFactors);
  const ratesOf = (county: RemCountyRow, basis: GridEmissions) =>
    emissionFactorsFor(county.state, onBasis(county, basis)).factors;
  return {
    counties,
    pricesOf: (county) => fuelPricesFor(county.state, rates, onBasis(county, DEFAULT_GRID_EMISSIONS)),
    factorsOf: (county) => ({
      onsiteKgPerUnit: ratesOf(county, DEFAULT_GRID_EMISSIONS).onsiteKgPerUnit,
      powerKgPerKwh: {
        long_run: ratesOf(county, 'long_run').powerKgPerKwh,
        current_average: ratesOf(county, 'current_average').powerKgPerKwh,
      },
      deathsPerTonne: {
        residential_combustion: deathsAt('residential_combustion', county.county_fips),
        electricity_generation: deathsAt('electricity_generation', county.state),
      },
    }),
  };
}

/** The heat pump upgrades, which leave an electrically heated home's gas appliances alone. */
export const HEAT_PUMP_UPGRADES: readonly string[] = [
  'hvac__heat_pump_seer15_hspf9',
  'hvac__heat_pump_seer18_hspf10',
  'hvac__heat_pump_seer24_hspf13',
];

/**
 * Adds an electrically heated cluster's gas (therm, summed over its homes) and the heat pumps' mean change of
 * it (the same sum) from its health bins: what the surrogate predicts for gas no heat pump touches, noise
 * whose mean should be 0.
 */
export function addUntouchedGas(
  into: { baseline: number; change: number },
  baselineTherms: number,
  bins: readonly HealthBinDelta[],
): void {
  into.baseline += baselineTherms;
  for (const bin of bins)
    if (HEAT_PUMP_UPGRADES.includes(bin.upgrade))
      into.change += (bin.delta_natural_gas_therm * bin.sample_homes) / HEAT_PUMP_UPGRADES.length;
}

/** The versions a rollup outside the pipeline labels its cells with: none of its figures depend on them. */
export const UNVERSIONED = {
  code_version: 'c',
  model_version: 'm',
  factors_version: 'f',
  damage_factors_version: 'd',
} as const;
