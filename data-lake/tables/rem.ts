import {
  clusterStatisticRowSchema,
  emissionFactorSchema,
  energyRateSchema,
  remCountyRowSchema,
  zipCountySchema,
} from '../../schemas/rem-data.ts';
import { remClusterRowSchema } from '../../schemas/rem-stage.ts';
import { tableRef } from './table-ref.ts';

/** The REM's lake tables: its location, rate and emission-factor tables, then the simulate stage's two. */

/** Counties of the contiguous US and DC as the sampler sees them. */
export const REM_COUNTIES = tableRef('rem_counties', remCountyRowSchema);
export const REM_ZIP_COUNTIES = tableRef('rem_zip_counties', zipCountySchema);
export const REM_ENERGY_RATES = tableRef('rem_energy_rates', energyRateSchema);
export const REM_EMISSION_FACTORS = tableRef('rem_emission_factors', emissionFactorSchema);
/** The simulate stage's clusters (county × heating fuel × water-heater fuel) and their statistics. */
export const REM_CLUSTERS = tableRef('rem_clusters', remClusterRowSchema);
export const REM_CLUSTER_STATISTICS = tableRef('rem_cluster_statistics', clusterStatisticRowSchema);
