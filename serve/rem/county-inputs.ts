import type { RemCountyRow } from '../../schemas/rem-data.ts';
import type { CountyInputs } from '../../schemas/rem-model.ts';
import type { RemData } from './rem-data.ts';

/**
 * What the REM model reads of the pinned snapshot for a county: its row and only the rate and factor rows
 * its state's prices are chosen from (the first match of each, so the same rows in the same order give
 * the same prices), a few rows to copy to a model thread instead of every state's.
 */
export function countyInputs(data: Pick<RemData, 'rates' | 'factors'>, county: RemCountyRow): CountyInputs {
  return {
    county,
    rates: data.rates.filter((rate) => rate.state === county.state),
    factors: data.factors.filter((factor) => factor.region === county.state || factor.region === 'US'),
  };
}
