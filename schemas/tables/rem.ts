import { z } from 'zod';
import {
  clusterStatisticRowSchema,
  countyProfileSchema,
  emissionFactorSchema,
  energyRateSchema,
  heatingFuelSharesSchema,
  zipCountySchema,
} from '../rem-data.ts';
import { remClusterRowSchema } from '../rem-stage.ts';
import { tableRef } from './table-ref.ts';

/** The REM's lake tables: its location, rate and emission-factor tables, then the simulate stage's two. */

/** Where a county's heating-fuel shares come from: its own ACS row, its state's ACS row, or the sampler's state table. */
export const HEATING_FUEL_BASES = ['county', 'state', 'state_table'] as const;

export const remCountyRowSchema = countyProfileSchema.extend({
  /** The weather station standing for the county's climate (simulate/climate/stations.ts). */
  station_id: z.string().regex(/^[a-z0-9-]+$/),
  /** Main heating fuel of the county's single-family and mobile homes (the REM universe), over the four fuels. */
  heating_fuel_shares: heatingFuelSharesSchema,
  /** The same for its households in buildings of 2 or more units. */
  multi_family_heating_fuel_shares: heatingFuelSharesSchema,
  heating_fuel_basis: z.enum(HEATING_FUEL_BASES),
});
export type RemCountyRow = z.infer<typeof remCountyRowSchema>;

/** Counties of the contiguous US and DC as the sampler sees them. */
export const REM_COUNTIES = tableRef('rem_counties', remCountyRowSchema);
export const REM_ZIP_COUNTIES = tableRef('rem_zip_counties', zipCountySchema);
export const REM_ENERGY_RATES = tableRef('rem_energy_rates', energyRateSchema);
export const REM_EMISSION_FACTORS = tableRef('rem_emission_factors', emissionFactorSchema);
/** The simulate stage's clusters (county × heating fuel × water-heater fuel) and their statistics. */
export const REM_CLUSTERS = tableRef('rem_clusters', remClusterRowSchema);
export const REM_CLUSTER_STATISTICS = tableRef('rem_cluster_statistics', clusterStatisticRowSchema);
