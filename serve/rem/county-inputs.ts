import { countyEmissionFactors, type GridEmissions, type RemCountyRow } from '../../schemas/rem-data.ts';
import type { CountyInputs } from '../../schemas/rem-model.ts';
import type { RemData } from './rem-data.ts';

/**
 * What the REM model reads of the pinned snapshot for a county: its row, only the rate rows of its state and
 * its emission factors on the request's grid basis (the first match of each, so the same rows in the same
 * order give the same prices), a few rows to copy to a model thread instead of every state's.
 */
export function countyInputs(
  data: Pick<RemData, 'rates' | 'factors' | 'gridFactors'>,
  county: RemCountyRow,
  basis: GridEmissions,
): CountyInputs {
  return {
    county,
    rates: data.rates.filter((rate) => rate.state === county.state),
    factors: countyEmissionFactors(county, basis, data.factors, data.gridFactors),
  };
}
