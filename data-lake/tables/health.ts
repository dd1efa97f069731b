import {
  damageFactorSchema,
  healthImpactCellSchema,
  placeDamageFactorSchema,
} from '../../schemas/health-data.ts';
import { tableRef } from './table-ref.ts';

/** The health model's lake tables. */

/** Deaths per tonne by region, sector and pollutant, as ingested. */
export const HEALTH_DAMAGE_FACTORS = tableRef('health_damage_factors', damageFactorSchema);
/** Deaths per tonne where a tonne is emitted: per county (homes), per state (power plants). */
export const HEALTH_PLACE_DAMAGE_FACTORS = tableRef('health_place_damage_factors', placeDamageFactorSchema);
/** The county rollup, which the simulate stage writes and the health API reads. */
export const HEALTH_COUNTY_IMPACTS = tableRef('health_county_impacts', healthImpactCellSchema);
