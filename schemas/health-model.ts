import type { MortalityEstimate } from './health-data.ts';

/**
 * The two PM2.5 mortality estimates every death figure comes in (the cells' `deaths_avoided` and
 * `deaths_avoided_low`), as an answer's `model.estimates` names them.
 */
export const HEALTH_ESTIMATES = {
  central:
    'Pope et al. (2019), National Health Interview Survey cohort, adults 18 and over: one of the adult ' +
    'all-cause functions of EPA BenMAP-CE’s "Premature Death – Primary" set, and by its ages the one ' +
    'behind COBRA’s high estimate',
  low: 'Wu et al. (2020), Medicare cohort, ages 65 and over: the low one of the same EPA set',
} as const satisfies Record<MortalityEstimate, string>;

/** What every health-impacts answer says about itself (its `model.statement`). */
export const HEALTH_STATEMENT =
  'A model-derived estimate, not a measurement. For each county, sample homes drawn from county-level ' +
  'housing-stock tables (by heating fuel and floor area) are evaluated with and without the upgrade by this ' +
  'project’s building-energy surrogate; the change in each fuel, times the county’s households in scope ' +
  '(single-family and mobile homes), gives the change in on-site combustion emissions (residential emission ' +
  'factors) and in power-plant emissions (the extra electricity times grid emission rates). Deaths avoided ' +
  'are those tonnes times published damage factors (premature deaths per tonne, by pollutant and by where ' +
  'it is emitted): this service runs no air-quality model of its own, and the factors carry their ' +
  'assumptions (a national or regional average exposure per tonne, one concentration–response function, ' +
  'deaths from PM2.5 only: ozone formed from NOx and VOC is not counted). ' +
  'The impact of an area is the nationwide effect of electrifying that area’s households. Positive means ' +
  'avoided, negative increased (SO2 often rises with the added generation). Not Rewiring America’s ' +
  'figures; do not add up several upgrades’ results.';
