import {
  clusterStatisticRowSchema,
  emissionFactorSchema,
  energyRateSchema,
  gridEmissionFactorSchema,
  gridRegionRowSchema,
  remCountyRowSchema,
  zipCountySchema,
} from '../../schemas/rem-data.ts';
import { remClusterRowSchema } from '../../schemas/rem-stage.ts';
import { byState, selectionIncludes } from './table-contract.ts';
import { tableRef } from './table-ref.ts';

/**
 * The REM's lake tables: its location, rate, emission-factor and long-run grid tables, then the simulate
 * stage's two.
 */

/** Counties of the contiguous US and DC as the sampler sees them. */
export const REM_COUNTIES = tableRef('rem_counties', remCountyRowSchema, byState(['county_fips'], 0.1));
export const REM_ZIP_COUNTIES = tableRef('rem_zip_counties', zipCountySchema, byState(['zip'], 0.1));
export const REM_ENERGY_RATES = tableRef(
  'rem_energy_rates',
  energyRateSchema,
  byState(['state', 'fuel'], 0, { measures: { 'volumetric rate': 'volumetric_rate' } }),
);
export const REM_EMISSION_FACTORS = tableRef('rem_emission_factors', emissionFactorSchema, {
  key: ['region', 'fuel', 'pollutant', 'basis'],
  partition: 'region',
  maxDrop: 0.25,
});
/** The Cambium regions' long-run figures, and the electricity factors each state × region takes on each grid basis. */
export const REM_GRID_REGIONS = tableRef('rem_grid_regions', gridRegionRowSchema, {
  key: ['grid_region'],
  maxDrop: 0,
  measures: { 'LRMER kg/MWh': 'lrmer_co2e_kg_per_mwh' },
});
export const REM_GRID_EMISSION_FACTORS = tableRef('rem_grid_emission_factors', gridEmissionFactorSchema, {
  key: ['region', 'grid_region', 'grid_emissions', 'pollutant'],
  partition: 'region',
  maxDrop: 0.25,
  // A unit slip upstream (kg/MWh read as kg/kWh) moves the CO2e factors a thousandfold.
  measures: { 'CO2e per kWh': "case when pollutant = 'co2e' then value end" },
});

/**
 * The simulate stage's partitions are the states REM_STATES and HEALTH_STATES select: every cluster of a
 * state in REM_STATES, only the clusters the health rollups need of a state in HEALTH_STATES alone. A state
 * that lost clusters because the settings select less of it is that, not an anomaly.
 */
const SIMULATED_STATES = {
  settings: ['REM_STATES', 'HEALTH_STATES'],
  level: (settings: Readonly<Record<string, unknown>>, state: string) =>
    selectionIncludes(settings.REM_STATES, state)
      ? 2
      : selectionIncludes(settings.HEALTH_STATES, state)
        ? 1
        : 0,
};
/** The simulate stage's clusters (county × heating fuel × water-heater fuel) and their statistics. */
export const REM_CLUSTERS = tableRef(
  'rem_clusters',
  remClusterRowSchema,
  byState(['cluster_id'], 0.1, { selectedBy: SIMULATED_STATES }),
);
export const REM_CLUSTER_STATISTICS = tableRef(
  'rem_cluster_statistics',
  clusterStatisticRowSchema,
  byState(['cluster_id', 'upgrade', 'fuel', 'scenario'], 0.1, { selectedBy: SIMULATED_STATES }),
);
