import type { ClimateZone, Fuel } from '../../schemas/rem.ts';

/**
 * Conditional distributions of the housing stock the sampler draws from, in the style of ResStock's
 * housing_characteristics (parents → option probabilities) but much coarser. Figures are rounded public
 * aggregates or, where labelled, judgement (approx.); model/README.md lists the sources.
 * HOUSING_STOCK_VERSION names these tables in the surrogate's model card (what it was trained on; model:eval
 * warns when they changed since): bump it with them. Results do not depend on it: the pipeline's fingerprints
 * hash this code itself (lib/code-fingerprint.ts), so any change here recomputes the clusters.
 */
export const HOUSING_STOCK_VERSION = 'rem-housing-stock-2026.11.3';

/** Option → weight; weights need not sum to 1 (the sampler normalises). */
export type Weights<T> = readonly (readonly [option: T, weight: number])[];

export type ZoneGroup = 'hot' | 'mixed' | 'cold';
/** IECC temperature zone 1–2 hot, 3–4 mixed, 5–7 cold. */
export const zoneGroupOf = (zoneTemp: number): ZoneGroup =>
  zoneTemp <= 2 ? 'hot' : zoneTemp <= 4 ? 'mixed' : 'cold';

export type Era = 'pre1950' | '1950to1979' | '1980to1999' | '2000on';
export const eraOf = (vintage: number): Era =>
  vintage < 1950 ? 'pre1950' : vintage < 1980 ? '1950to1979' : vintage < 2000 ? '1980to1999' : '2000on';

export type Region = 'northeast' | 'midwest' | 'south' | 'west';
export type BuildingType = 'single_family_detached' | 'single_family_attached' | 'mobile_home';

/** Census regions (US Census Bureau). */
export const CENSUS_REGION: Readonly<Record<string, Region>> = {
  CT: 'northeast',
  ME: 'northeast',
  MA: 'northeast',
  NH: 'northeast',
  RI: 'northeast',
  VT: 'northeast',
  NJ: 'northeast',
  NY: 'northeast',
  PA: 'northeast',
  IL: 'midwest',
  IN: 'midwest',
  MI: 'midwest',
  OH: 'midwest',
  WI: 'midwest',
  IA: 'midwest',
  KS: 'midwest',
  MN: 'midwest',
  MO: 'midwest',
  NE: 'midwest',
  ND: 'midwest',
  SD: 'midwest',
  DE: 'south',
  DC: 'south',
  FL: 'south',
  GA: 'south',
  MD: 'south',
  NC: 'south',
  SC: 'south',
  VA: 'south',
  WV: 'south',
  AL: 'south',
  KY: 'south',
  MS: 'south',
  TN: 'south',
  AR: 'south',
  LA: 'south',
  OK: 'south',
  TX: 'south',
  AZ: 'west',
  CO: 'west',
  ID: 'west',
  MT: 'west',
  NV: 'west',
  NM: 'west',
  UT: 'west',
  WY: 'west',
  CA: 'west',
  OR: 'west',
  WA: 'west',
};

/**
 * Building type among the API's universe (single-family detached / attached, mobile homes), by region:
 * ACS 2018–2022 table B25024 (units in structure), occupied units, rounded (approx.).
 */
export const BUILDING_TYPE_BY_REGION = {
  northeast: [
    ['single_family_detached', 0.8],
    ['single_family_attached', 0.14],
    ['mobile_home', 0.06],
  ],
  midwest: [
    ['single_family_detached', 0.88],
    ['single_family_attached', 0.06],
    ['mobile_home', 0.06],
  ],
  south: [
    ['single_family_detached', 0.8],
    ['single_family_attached', 0.07],
    ['mobile_home', 0.13],
  ],
  west: [
    ['single_family_detached', 0.83],
    ['single_family_attached', 0.08],
    ['mobile_home', 0.09],
  ],
} as const satisfies Record<Region, Weights<BuildingType>>;

/**
 * Year built (decade midpoints; before 1940 → 1930) by zone group: ACS B25034 shares, shifted older in
 * the North-East / Midwest and newer in the South-West (approx.). Mobile homes: ACS B25034 × B25024.
 */
export const VINTAGE_BY_ZONE_GROUP = {
  cold: [
    [1930, 0.2],
    [1945, 0.07],
    [1955, 0.13],
    [1965, 0.11],
    [1975, 0.13],
    [1985, 0.1],
    [1995, 0.11],
    [2005, 0.1],
    [2015, 0.05],
  ],
  mixed: [
    [1930, 0.09],
    [1945, 0.05],
    [1955, 0.1],
    [1965, 0.11],
    [1975, 0.15],
    [1985, 0.14],
    [1995, 0.14],
    [2005, 0.14],
    [2015, 0.08],
  ],
  hot: [
    [1930, 0.03],
    [1945, 0.03],
    [1955, 0.08],
    [1965, 0.1],
    [1975, 0.16],
    [1985, 0.17],
    [1995, 0.16],
    [2005, 0.17],
    [2015, 0.1],
  ],
} as const satisfies Record<ZoneGroup, Weights<number>>;
export const MOBILE_HOME_VINTAGE: Weights<number> = [
  [1955, 0.02],
  [1965, 0.08],
  [1975, 0.22],
  [1985, 0.22],
  [1995, 0.26],
  [2005, 0.14],
  [2015, 0.06],
];

/**
 * Median conditioned floor area (ft²) by type and era, log-normal spread: EIA RECS 2020 housing
 * characteristics tables HC10.1 / HC10.9 (square footage by type and year built), rounded (approx.).
 */
export const FLOOR_AREA_MEDIAN_FT2 = {
  single_family_detached: { pre1950: 1600, '1950to1979': 1650, '1980to1999': 1950, '2000on': 2300 },
  single_family_attached: { pre1950: 1350, '1950to1979': 1300, '1980to1999': 1450, '2000on': 1650 },
  mobile_home: { pre1950: 900, '1950to1979': 950, '1980to1999': 1200, '2000on': 1400 },
} as const;
export const FLOOR_AREA_LOG_SD = 0.33;
export const FLOOR_AREA_LIMITS_FT2 = [500, 6000] as const;

/**
 * Stories: attached units are two-story 70 % of the time; detached homes are one-story 70 / 45 / 25 % of the
 * time below 1,500 / 2,500 / above ft², and three-story 3 % (RECS 2020 HC2.x, approx.). Mobile homes: one.
 */
export const ATTACHED_TWO_STORY_SHARE = 0.7;
export const DETACHED_ONE_STORY_SHARE = [
  [1500, 0.7],
  [2500, 0.45],
  [Infinity, 0.25],
] as const;
export const DETACHED_THREE_STORY_SHARE = 0.03;

/** Bedrooms ≈ 1.2 + ft² / 900 with a 0.5 spread, limited to 1–6 (fit to RECS 2020 HC2.x, approx.). */
export const BEDROOMS = { intercept: 1.2, ft2PerBedroom: 900, sd: 0.5, min: 1, max: 6 } as const;
/** Occupants ≈ 0.87 + 0.59 × bedrooms (BA-HSP) with a 0.9 household-to-household spread, 1–8. */
export const OCCUPANTS = { intercept: 0.87, perBedroom: 0.59, sd: 0.9, min: 1, max: 8 } as const;

/** Share of site-built homes with a finished roof (cathedral ceilings, finished attics) instead of a vented attic (approx.). */
export const FINISHED_ROOF_SHARE = 0.15;

/** Foundation by IECC zone (RECS 2020 HC2.x basements / crawlspaces / slabs by region, approx.). */
export const FOUNDATION_BY_ZONE = {
  '1A': [
    ['slab', 0.95],
    ['crawlspace', 0.05],
  ],
  '2A': [
    ['slab', 0.85],
    ['crawlspace', 0.13],
    ['heated_basement', 0.02],
  ],
  '2B': [
    ['slab', 0.92],
    ['crawlspace', 0.06],
    ['heated_basement', 0.02],
  ],
  '3A': [
    ['slab', 0.5],
    ['crawlspace', 0.4],
    ['unheated_basement', 0.05],
    ['heated_basement', 0.05],
  ],
  '3B': [
    ['slab', 0.75],
    ['crawlspace', 0.17],
    ['unheated_basement', 0.03],
    ['heated_basement', 0.05],
  ],
  '3C': [
    ['slab', 0.4],
    ['crawlspace', 0.5],
    ['unheated_basement', 0.05],
    ['heated_basement', 0.05],
  ],
  '4A': [
    ['slab', 0.2],
    ['crawlspace', 0.35],
    ['unheated_basement', 0.2],
    ['heated_basement', 0.25],
  ],
  '4B': [
    ['slab', 0.5],
    ['crawlspace', 0.3],
    ['unheated_basement', 0.08],
    ['heated_basement', 0.12],
  ],
  '4C': [
    ['slab', 0.2],
    ['crawlspace', 0.65],
    ['unheated_basement', 0.05],
    ['heated_basement', 0.1],
  ],
  '5A': [
    ['slab', 0.12],
    ['crawlspace', 0.13],
    ['unheated_basement', 0.3],
    ['heated_basement', 0.45],
  ],
  '5B': [
    ['slab', 0.25],
    ['crawlspace', 0.2],
    ['unheated_basement', 0.2],
    ['heated_basement', 0.35],
  ],
  '6A': [
    ['slab', 0.1],
    ['crawlspace', 0.1],
    ['unheated_basement', 0.3],
    ['heated_basement', 0.5],
  ],
  '6B': [
    ['slab', 0.15],
    ['crawlspace', 0.15],
    ['unheated_basement', 0.25],
    ['heated_basement', 0.45],
  ],
  '7': [
    ['slab', 0.1],
    ['crawlspace', 0.1],
    ['unheated_basement', 0.3],
    ['heated_basement', 0.5],
  ],
} as const satisfies Record<ClimateZone, Weights<string>>;

/** Insulation levels (nominal R) by era (and zone group for the attic and walls), approx. after ResStock. */
export const FOUNDATION_INSULATION_R = {
  pre1950: [
    [0, 0.85],
    [5, 0.1],
    [10, 0.05],
  ],
  '1950to1979': [
    [0, 0.8],
    [5, 0.12],
    [10, 0.08],
  ],
  '1980to1999': [
    [0, 0.55],
    [5, 0.2],
    [10, 0.2],
    [13, 0.05],
  ],
  '2000on': [
    [0, 0.3],
    [10, 0.45],
    [13, 0.15],
    [19, 0.1],
  ],
} as const satisfies Record<Era, Weights<number>>;

export const CEILING_INSULATION_R = {
  pre1950: {
    cold: [
      [0, 0.08],
      [7, 0.07],
      [13, 0.15],
      [19, 0.25],
      [30, 0.3],
      [38, 0.1],
      [49, 0.05],
    ],
    mixed: [
      [0, 0.1],
      [7, 0.1],
      [13, 0.2],
      [19, 0.3],
      [30, 0.25],
      [38, 0.05],
    ],
    hot: [
      [0, 0.1],
      [7, 0.1],
      [13, 0.25],
      [19, 0.3],
      [30, 0.2],
      [38, 0.05],
    ],
  },
  '1950to1979': {
    cold: [
      [0, 0.03],
      [7, 0.05],
      [13, 0.12],
      [19, 0.25],
      [30, 0.35],
      [38, 0.15],
      [49, 0.05],
    ],
    mixed: [
      [0, 0.04],
      [7, 0.06],
      [13, 0.15],
      [19, 0.3],
      [30, 0.35],
      [38, 0.1],
    ],
    hot: [
      [0, 0.05],
      [7, 0.08],
      [13, 0.2],
      [19, 0.32],
      [30, 0.3],
      [38, 0.05],
    ],
  },
  '1980to1999': {
    cold: [
      [13, 0.05],
      [19, 0.15],
      [30, 0.4],
      [38, 0.3],
      [49, 0.1],
    ],
    mixed: [
      [13, 0.08],
      [19, 0.2],
      [30, 0.45],
      [38, 0.22],
      [49, 0.05],
    ],
    hot: [
      [13, 0.1],
      [19, 0.3],
      [30, 0.45],
      [38, 0.15],
    ],
  },
  '2000on': {
    cold: [
      [30, 0.15],
      [38, 0.35],
      [49, 0.4],
      [60, 0.1],
    ],
    mixed: [
      [30, 0.3],
      [38, 0.4],
      [49, 0.3],
    ],
    hot: [
      [19, 0.05],
      [30, 0.45],
      [38, 0.4],
      [49, 0.1],
    ],
  },
} as const satisfies Record<Era, Record<ZoneGroup, Weights<number>>>;

export const WALL_INSULATION_R = {
  pre1950: {
    cold: [
      [0, 0.5],
      [7, 0.1],
      [11, 0.2],
      [13, 0.2],
    ],
    mixed: [
      [0, 0.55],
      [7, 0.1],
      [11, 0.2],
      [13, 0.15],
    ],
    hot: [
      [0, 0.6],
      [7, 0.1],
      [11, 0.2],
      [13, 0.1],
    ],
  },
  '1950to1979': {
    cold: [
      [0, 0.2],
      [7, 0.15],
      [11, 0.35],
      [13, 0.3],
    ],
    mixed: [
      [0, 0.25],
      [7, 0.15],
      [11, 0.35],
      [13, 0.25],
    ],
    hot: [
      [0, 0.3],
      [7, 0.15],
      [11, 0.35],
      [13, 0.2],
    ],
  },
  '1980to1999': {
    cold: [
      [11, 0.3],
      [13, 0.4],
      [19, 0.2],
      [21, 0.1],
    ],
    mixed: [
      [7, 0.05],
      [11, 0.35],
      [13, 0.45],
      [19, 0.15],
    ],
    hot: [
      [7, 0.07],
      [11, 0.38],
      [13, 0.45],
      [19, 0.1],
    ],
  },
  '2000on': {
    cold: [
      [13, 0.35],
      [19, 0.35],
      [21, 0.3],
    ],
    mixed: [
      [13, 0.55],
      [19, 0.25],
      [21, 0.2],
    ],
    hot: [
      [11, 0.1],
      [13, 0.65],
      [19, 0.15],
      [21, 0.1],
    ],
  },
} as const satisfies Record<Era, Record<ZoneGroup, Weights<number>>>;

/**
 * Median ACH50 by era, log-normal spread, mobile homes leakier: LBNL Residential Diagnostics Database
 * (Chan, Joh & Sherman 2013, "Analysis of air leakage measurements of US houses"), approx.
 */
export const ACH50_MEDIAN = { pre1950: 18, '1950to1979': 13, '1980to1999': 9, '2000on': 6 } as const;
/**
 * How much leakier or tighter a climate zone's homes are than the nation's of the same age and size: the
 * climate term of LBNL's leakage regression (Chan, Joh & Sherman 2013: year built and climate zone are its two
 * strongest predictors; homes of cold zones are tighter), as NREL's ResStock distributes ACH50 by it
 * (`project_national/housing_characteristics/Infiltration.tsv`, NREL/resstock @0a96e0a6, BSD-3). Each factor
 * is the zone's geometric-mean ACH50 ÷ the sampling-weighted national one, averaged over the file's 1,500–1,999
 * ft² homes of the 1940s (national 20.6 ACH50) and of the 1990s (11.1), whose ratios agree within 0.04;
 * ResStock's 2004 zones, 7A for zone 7. Without it every zone had the nation's leakage, which put too much
 * heating in cold zones and too little in the humid South (docs/rem-model.md, calibration).
 */
export const ACH50_CLIMATE_FACTOR: Readonly<Record<ClimateZone, number>> = {
  '1A': 1.3,
  '2A': 1.3,
  '2B': 0.79,
  '3A': 1.06,
  '3B': 0.79,
  '3C': 0.86,
  '4A': 1.13,
  '4B': 0.81,
  '4C': 1.06,
  '5A': 0.92,
  '5B': 0.81,
  '6A': 0.82,
  '6B': 0.84,
  '7': 0.82,
};
export const ACH50_LOG_SD = 0.4;
export const MOBILE_HOME_ACH50_FACTOR = 1.3;
export const ACH50_LIMITS = [1.5, 50] as const;

/** Window types (whole-window U, SHGC; ResStock window options, approx.) and their shares by era. */
export const WINDOW_TYPES = {
  single_clear_metal: { u: 1.16, shgc: 0.76 },
  single_clear_nonmetal: { u: 0.84, shgc: 0.63 },
  double_clear_metal: { u: 0.76, shgc: 0.67 },
  double_clear_nonmetal: { u: 0.49, shgc: 0.56 },
  double_low_e_nonmetal: { u: 0.35, shgc: 0.44 },
  triple_low_e_nonmetal: { u: 0.22, shgc: 0.38 },
} as const;
export const WINDOW_TYPE_BY_ERA = {
  pre1950: [
    ['single_clear_metal', 0.15],
    ['single_clear_nonmetal', 0.3],
    ['double_clear_metal', 0.1],
    ['double_clear_nonmetal', 0.35],
    ['double_low_e_nonmetal', 0.1],
  ],
  '1950to1979': [
    ['single_clear_metal', 0.15],
    ['single_clear_nonmetal', 0.2],
    ['double_clear_metal', 0.15],
    ['double_clear_nonmetal', 0.38],
    ['double_low_e_nonmetal', 0.12],
  ],
  '1980to1999': [
    ['single_clear_metal', 0.04],
    ['single_clear_nonmetal', 0.04],
    ['double_clear_metal', 0.15],
    ['double_clear_nonmetal', 0.55],
    ['double_low_e_nonmetal', 0.22],
  ],
  '2000on': [
    ['double_clear_metal', 0.03],
    ['double_clear_nonmetal', 0.25],
    ['double_low_e_nonmetal', 0.67],
    ['triple_low_e_nonmetal', 0.05],
  ],
} as const satisfies Record<Era, Weights<keyof typeof WINDOW_TYPES>>;
/** Window-to-wall ratio: normal(0.14, 0.03), limits (ResStock window areas ≈ 15 %, approx.). */
export const WINDOW_WALL_RATIO = { mean: 0.14, sd: 0.03, min: 0.06, max: 0.3 } as const;

/**
 * Main heating fuel shares by state, [electricity, natural gas, fuel oil, propane], among households using
 * one of these four: ACS 2018–2022 5-year table B25040 (house heating fuel), rounded (approx.; wood, other
 * and none are left out and the rest renormalised by the sampler). Heat-pump homes are outside the API's
 * universe, so "electricity" here means resistance heating.
 */
export const HEATING_FUEL_BY_STATE: Readonly<Record<string, readonly [number, number, number, number]>> = {
  AL: [0.62, 0.3, 0.002, 0.06],
  AZ: [0.6, 0.36, 0.001, 0.03],
  AR: [0.5, 0.4, 0.001, 0.08],
  CA: [0.3, 0.63, 0.003, 0.03],
  CO: [0.23, 0.7, 0.002, 0.05],
  CT: [0.2, 0.38, 0.37, 0.04],
  DE: [0.4, 0.37, 0.09, 0.12],
  DC: [0.38, 0.58, 0.03, 0.003],
  FL: [0.9, 0.07, 0.001, 0.015],
  GA: [0.54, 0.4, 0.002, 0.05],
  ID: [0.36, 0.52, 0.006, 0.06],
  IL: [0.18, 0.76, 0.002, 0.05],
  IN: [0.32, 0.57, 0.004, 0.09],
  IA: [0.22, 0.63, 0.003, 0.13],
  KS: [0.28, 0.64, 0.001, 0.06],
  KY: [0.55, 0.37, 0.004, 0.06],
  LA: [0.64, 0.33, 0.001, 0.02],
  ME: [0.1, 0.06, 0.55, 0.15],
  MD: [0.46, 0.44, 0.06, 0.035],
  MA: [0.19, 0.53, 0.22, 0.04],
  MI: [0.12, 0.76, 0.005, 0.09],
  MN: [0.19, 0.67, 0.01, 0.09],
  MS: [0.55, 0.35, 0.001, 0.08],
  MO: [0.44, 0.46, 0.002, 0.08],
  MT: [0.23, 0.55, 0.006, 0.12],
  NE: [0.3, 0.6, 0.002, 0.08],
  NV: [0.4, 0.56, 0.002, 0.03],
  NH: [0.1, 0.22, 0.4, 0.18],
  NJ: [0.16, 0.73, 0.08, 0.02],
  NM: [0.22, 0.66, 0.001, 0.07],
  NY: [0.14, 0.58, 0.19, 0.04],
  NC: [0.6, 0.26, 0.02, 0.09],
  ND: [0.4, 0.42, 0.02, 0.12],
  OH: [0.27, 0.64, 0.01, 0.06],
  OK: [0.39, 0.53, 0.001, 0.07],
  OR: [0.53, 0.38, 0.02, 0.03],
  PA: [0.25, 0.51, 0.15, 0.06],
  RI: [0.12, 0.52, 0.3, 0.04],
  SC: [0.68, 0.25, 0.003, 0.06],
  SD: [0.28, 0.47, 0.01, 0.2],
  TN: [0.6, 0.34, 0.002, 0.04],
  TX: [0.63, 0.34, 0.0005, 0.025],
  UT: [0.14, 0.82, 0.001, 0.03],
  VT: [0.06, 0.17, 0.4, 0.22],
  VA: [0.58, 0.3, 0.05, 0.06],
  WA: [0.58, 0.35, 0.02, 0.03],
  WV: [0.38, 0.45, 0.02, 0.06],
  WI: [0.18, 0.66, 0.01, 0.12],
  WY: [0.25, 0.62, 0.002, 0.1],
};
export const FUEL_ORDER: readonly Fuel[] = ['electricity', 'natural_gas', 'fuel_oil', 'propane'];

/**
 * Below this probability a location–fuel combination is treated as not occurring (≈ 0): the sampler reports
 * it unsupported instead of inventing homes for it.
 */
export const IMPLAUSIBLE_PROBABILITY = 0.005;

/** Heating system type by fuel and zone group (RECS 2020 HC6.1 / HC6.7, approx.). Mobile homes: furnaces. */
export const HEATING_TYPE = {
  natural_gas: {
    cold: [
      ['furnace', 0.8],
      ['boiler', 0.17],
      ['wall_furnace', 0.03],
    ],
    mixed: [
      ['furnace', 0.88],
      ['boiler', 0.08],
      ['wall_furnace', 0.04],
    ],
    hot: [
      ['furnace', 0.9],
      ['boiler', 0.02],
      ['wall_furnace', 0.08],
    ],
  },
  propane: {
    cold: [
      ['furnace', 0.8],
      ['boiler', 0.12],
      ['wall_furnace', 0.08],
    ],
    mixed: [
      ['furnace', 0.8],
      ['boiler', 0.06],
      ['wall_furnace', 0.14],
    ],
    hot: [
      ['furnace', 0.8],
      ['boiler', 0.02],
      ['wall_furnace', 0.18],
    ],
  },
  fuel_oil: {
    cold: [
      ['boiler', 0.6],
      ['furnace', 0.4],
    ],
    mixed: [
      ['boiler', 0.5],
      ['furnace', 0.5],
    ],
    hot: [
      ['boiler', 0.4],
      ['furnace', 0.6],
    ],
  },
  electricity: {
    cold: [
      ['electric_baseboard', 0.7],
      ['furnace', 0.3],
    ],
    mixed: [
      ['electric_baseboard', 0.45],
      ['furnace', 0.55],
    ],
    hot: [
      ['electric_baseboard', 0.3],
      ['furnace', 0.7],
    ],
  },
} as const satisfies Record<Fuel, Record<ZoneGroup, Weights<string>>>;

/** AFUE by fuel and system (DOE minimums over the stock's age mix; condensing shares higher up north). */
export const FURNACE_AFUE_GAS = {
  cold: [
    [0.65, 0.05],
    [0.78, 0.1],
    [0.8, 0.25],
    [0.92, 0.2],
    [0.95, 0.4],
  ],
  mixed: [
    [0.65, 0.05],
    [0.78, 0.1],
    [0.8, 0.45],
    [0.92, 0.15],
    [0.95, 0.25],
  ],
  hot: [
    [0.65, 0.05],
    [0.78, 0.15],
    [0.8, 0.55],
    [0.92, 0.1],
    [0.95, 0.15],
  ],
} as const satisfies Record<ZoneGroup, Weights<number>>;
export const BOILER_AFUE_GAS: Weights<number> = [
  [0.75, 0.2],
  [0.82, 0.55],
  [0.9, 0.25],
];
export const WALL_FURNACE_AFUE: Weights<number> = [
  [0.6, 0.3],
  [0.68, 0.5],
  [0.75, 0.2],
];
export const FURNACE_AFUE_OIL: Weights<number> = [
  [0.78, 0.4],
  [0.83, 0.45],
  [0.87, 0.15],
];
export const BOILER_AFUE_OIL: Weights<number> = [
  [0.8, 0.4],
  [0.84, 0.45],
  [0.87, 0.15],
];

/** Thermostat habits (RECS 2020 HC6.x thermostat settings, approx.). */
export const HEATING_SETPOINT_F = { mean: 69.5, sd: 2, min: 60, max: 76 } as const;
export const HEATING_SETBACK_F: Weights<number> = [
  [0, 0.55],
  [4, 0.25],
  [8, 0.2],
];
export const COOLING_SETPOINT_F = { mean: 74.5, sd: 2.2, min: 68, max: 82 } as const;
export const COOLING_SETUP_F: Weights<number> = [
  [0, 0.6],
  [4, 0.25],
  [8, 0.15],
];

/** Share of ducted two-plus-story homes whose ducts run inside the conditioned space (approx.). */
export const DUCTS_IN_CONDITIONED_SPACE = 0.15;
export const DUCT_LEAKAGE = {
  pre1950: { mean: 0.25, sd: 0.06 },
  '1950to1979': { mean: 0.24, sd: 0.06 },
  '1980to1999': { mean: 0.19, sd: 0.05 },
  '2000on': { mean: 0.12, sd: 0.04 },
} as const;
export const DUCT_LEAKAGE_LIMITS = [0.03, 0.4] as const;
export const DUCT_INSULATION_R = {
  pre1950: [
    [0, 0.5],
    [4, 0.35],
    [6, 0.15],
  ],
  '1950to1979': [
    [0, 0.45],
    [4, 0.4],
    [6, 0.15],
  ],
  '1980to1999': [
    [0, 0.15],
    [4, 0.45],
    [6, 0.4],
  ],
  '2000on': [
    [4, 0.2],
    [6, 0.5],
    [8, 0.3],
  ],
} as const satisfies Record<Era, Weights<number>>;

/** Air conditioning type by IECC zone (RECS 2020 HC7.1 by climate region, approx.). */
export const COOLING_TYPE_BY_ZONE = {
  '1A': [
    ['central_ac', 0.9],
    ['room_ac', 0.08],
    ['none', 0.02],
  ],
  '2A': [
    ['central_ac', 0.87],
    ['room_ac', 0.1],
    ['none', 0.03],
  ],
  '2B': [
    ['central_ac', 0.88],
    ['room_ac', 0.08],
    ['none', 0.04],
  ],
  '3A': [
    ['central_ac', 0.8],
    ['room_ac', 0.15],
    ['none', 0.05],
  ],
  '3B': [
    ['central_ac', 0.7],
    ['room_ac', 0.15],
    ['none', 0.15],
  ],
  '3C': [
    ['central_ac', 0.2],
    ['room_ac', 0.2],
    ['none', 0.6],
  ],
  '4A': [
    ['central_ac', 0.67],
    ['room_ac', 0.25],
    ['none', 0.08],
  ],
  '4B': [
    ['central_ac', 0.6],
    ['room_ac', 0.2],
    ['none', 0.2],
  ],
  '4C': [
    ['central_ac', 0.25],
    ['room_ac', 0.2],
    ['none', 0.55],
  ],
  '5A': [
    ['central_ac', 0.62],
    ['room_ac', 0.26],
    ['none', 0.12],
  ],
  '5B': [
    ['central_ac', 0.55],
    ['room_ac', 0.2],
    ['none', 0.25],
  ],
  '6A': [
    ['central_ac', 0.45],
    ['room_ac', 0.3],
    ['none', 0.25],
  ],
  '6B': [
    ['central_ac', 0.35],
    ['room_ac', 0.25],
    ['none', 0.4],
  ],
  '7': [
    ['central_ac', 0.3],
    ['room_ac', 0.3],
    ['none', 0.4],
  ],
} as const;
/** Central AC SEER (stock mix of DOE minimums 10 → 13 → 14, approx.) and room AC EER (ENERGY STAR era). */
export const CENTRAL_AC_SEER: Weights<number> = [
  [10, 0.2],
  [13, 0.45],
  [14, 0.2],
  [16, 0.15],
];
export const ROOM_AC_EER: Weights<number> = [
  [8.5, 0.3],
  [9.8, 0.5],
  [10.9, 0.2],
];
export const ROOM_AC_COOLED_FRACTION: Weights<number> = [
  [0.2, 0.3],
  [0.4, 0.4],
  [0.6, 0.3],
];

/**
 * Water-heater fuel given the heating fuel (RECS 2020 HC8.x, approx.), before the state availability
 * factor: a non-electric fuel's weight is scaled by min(1, state heating share of that fuel / 5 %), since
 * a fuel hardly used for heating in a state is hardly delivered there at all.
 */
export const WATER_HEATER_FUEL_GIVEN_HEATING = {
  natural_gas: { natural_gas: 0.9, electricity: 0.093, propane: 0.004, fuel_oil: 0.003 },
  electricity: { electricity: 0.85, natural_gas: 0.12, propane: 0.027, fuel_oil: 0.003 },
  fuel_oil: { fuel_oil: 0.45, electricity: 0.3, natural_gas: 0.15, propane: 0.1 },
  propane: { propane: 0.55, electricity: 0.444, natural_gas: 0.002, fuel_oil: 0.004 },
} as const satisfies Record<Fuel, Record<Fuel, number>>;
export const FUEL_AVAILABILITY_SHARE = 0.05;

/** Water-heater type and UEF by fuel (DOE minimum and ENERGY STAR levels over the stock, approx.). */
export const WATER_HEATER_BY_FUEL = {
  natural_gas: [
    [{ type: 'storage', uef: 0.58 }, 0.55],
    [{ type: 'storage', uef: 0.64 }, 0.25],
    [{ type: 'storage', uef: 0.8 }, 0.08],
    [{ type: 'tankless', uef: 0.9 }, 0.12],
  ],
  propane: [
    [{ type: 'storage', uef: 0.58 }, 0.55],
    [{ type: 'storage', uef: 0.64 }, 0.25],
    [{ type: 'storage', uef: 0.8 }, 0.08],
    [{ type: 'tankless', uef: 0.9 }, 0.12],
  ],
  fuel_oil: [
    [{ type: 'storage', uef: 0.55 }, 0.5],
    [{ type: 'storage', uef: 0.62 }, 0.5],
  ],
  electricity: [
    [{ type: 'storage', uef: 0.9 }, 0.38],
    [{ type: 'storage', uef: 0.92 }, 0.47],
    [{ type: 'storage', uef: 0.95 }, 0.1],
    [{ type: 'tankless', uef: 0.98 }, 0.02],
    [{ type: 'heat_pump', uef: 2.3 }, 0.03],
  ],
} as const satisfies Record<Fuel, Weights<WaterHeaterOption>>;
export interface WaterHeaterOption {
  type: 'storage' | 'tankless' | 'heat_pump';
  uef: number;
}
/**
 * Tank volume by bedrooms (BA-HSP Table 8, approx.): fossil [1–2, 3, 4, 5+ bedrooms], electric likewise.
 */
export const TANK_GAL_FOSSIL = [30, 30, 40, 40, 50, 50] as const;
export const TANK_GAL_ELECTRIC = [30, 40, 50, 50, 66, 66] as const;

/** Appliances (RECS 2020 HC3.x: dryers in ≈ 90 % of single-family homes; fuel follows gas service). */
export const HAS_DRYER = 0.9;
export const GAS_DRYER_GIVEN_GAS_SERVICE = 0.4;
export const PROPANE_DRYER_GIVEN_PROPANE = 0.15;
export const HEAT_PUMP_DRYER_SHARE = 0.01;
export const GAS_RANGE_GIVEN_GAS_SERVICE = 0.6;
export const PROPANE_RANGE_GIVEN_PROPANE = 0.4;
export const INDUCTION_SHARE = 0.04;
