import type { BuildingFeatures, ESTIMATE_TYPES } from '../../schemas/rem-api.ts';

/**
 * What a profile's answer is over: homes matching the building (`address_level`), or, when no feature it
 * honours is known, every home drawn for the county and fuels (`county_level`, as /rem/address labels them).
 */
export const profileEstimateType = (features: BuildingFeatures): (typeof ESTIMATE_TYPES)[number] =>
  Object.values(features).some((value) => value != null) ? 'address_level' : 'county_level';

/** `G4400070` (GISJOIN: G + state FIPS + 0 + county FIPS + 0) or `44007` → `44007`. */
export const countyFipsOf = (county: string): string =>
  county.startsWith('G') ? county.slice(1, 3) + county.slice(4, 7) : county;
