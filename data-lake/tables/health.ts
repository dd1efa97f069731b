import {
  damageFactorSchema,
  healthImpactCellSchema,
  placeDamageFactorSchema,
} from '../../schemas/health-data.ts';
import { byState, selectionIncludes, whole } from './table-contract.ts';
import { tableRef } from './table-ref.ts';

/** The health model's lake tables. */

/** Deaths per tonne by region, sector and pollutant, as ingested. */
export const HEALTH_DAMAGE_FACTORS = tableRef(
  'health_damage_factors',
  damageFactorSchema,
  whole(['region', 'sector', 'pollutant'], 0),
);
/** Deaths per tonne where a tonne is emitted: per county (homes), per state (power plants). */
export const HEALTH_PLACE_DAMAGE_FACTORS = tableRef(
  'health_place_damage_factors',
  placeDamageFactorSchema,
  byState(['sector', 'county_fips', 'state', 'pollutant'], 0.1, {
    measures: { 'deaths per tonne': 'deaths_per_tonne' },
  }),
);
/** The county rollup, which the simulate stage writes and the health API reads. */
export const HEALTH_COUNTY_IMPACTS = tableRef(
  'health_county_impacts',
  healthImpactCellSchema,
  byState(['county_fips', 'upgrade', 'heating_fuel', 'sqft_bin', 'housing_type', 'grid_emissions'], 0.1, {
    selectedBy: {
      settings: ['HEALTH_STATES'],
      level: (settings, state) => (selectionIncludes(settings.HEALTH_STATES, state) ? 1 : 0),
    },
  }),
);
