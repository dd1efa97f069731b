import { VALUE_OF_STATISTICAL_LIFE, type MortalityEstimate } from './health-data.ts';

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

const vslMillions = (VALUE_OF_STATISTICAL_LIFE.usd / 1e6).toFixed(1);

/** What every health-impacts answer says about itself (its `model.statement`). */
export const HEALTH_STATEMENT =
  'A model-derived estimate, not a measurement. For each county, sample homes drawn from county-level ' +
  'housing-stock tables (by heating fuel and floor area) are evaluated with and without the upgrade by this ' +
  'project’s building-energy surrogate; the change in each fuel, times the county’s households, gives the ' +
  'change in on-site combustion emissions (residential emission factors) and in power-plant emissions (the ' +
  'extra electricity times grid emission rates: by default those of the grid over a new appliance’s life, ' +
  'NREL Cambium’s projection applied to today’s rates, or today’s as asked; `grid_emissions` says which). ' +
  'The households are those of single-family and mobile ' +
  'homes, which are simulated, and of multi-family buildings (2 or more units), which are not: their fuel ' +
  'change is approximated from the county’s single-family homes, scaled by EIA RECS 2015 consumption per ' +
  'household of apartments relative to single-family homes, and an answer whose rows include them says so. ' +
  'Deaths avoided are those tonnes times deaths per tonne: EPA’s national per-tonne figures, by pollutant ' +
  'and sector, spread by the population exposed, per county for home emissions and per state for power ' +
  'plants (by where the state’s fossil generation is). This service runs no air-quality model of ' +
  'its own, and the figures carry their assumptions: deaths from PM2.5 only, by two risk estimates (central: ' +
  'Pope et al. 2019, adults 18+; low: Wu et al. 2020, ages 65+); ozone formed from NOx and VOC is not ' +
  'counted, and ammonia and VOC kilograms are reported but add no deaths (no published per-tonne figure). ' +
  'Deaths are valued at EPA’s value of a statistical life brought to ' +
  `${VALUE_OF_STATISTICAL_LIFE.dollarYear} dollars by consumer prices only (not grown with income, as EPA ` +
  `does): $${vslMillions} million. The impact of an area is the nationwide effect of ` +
  'electrifying that area’s households. Positive means avoided, negative increased (SO2 often rises with ' +
  'the added generation). Not Rewiring America’s figures; do not add up several upgrades’ results.';
