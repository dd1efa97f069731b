import {
  HEALTH_POLLUTANTS,
  type CountyGeography,
  type DamageFactor,
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
} from '../../simulate/health/county-rollup.ts';
import { placeDamageFactors } from '../../simulate/health/place-damage-factors.ts';
import { fuelPricesFor, type FuelPrices } from '../../simulate/savings/fuel-prices.ts';
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

/** The versions a rollup outside the pipeline labels its cells with: none of its figures depend on them. */
export const UNVERSIONED = {
  code_version: 'c',
  model_version: 'm',
  factors_version: 'f',
  damage_factors_version: 'd',
} as const;
