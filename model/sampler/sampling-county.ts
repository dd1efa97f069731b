import type { CountyProfile } from '../../schemas/rem-data.ts';
import type { Fuel, SamplingCounty } from '../../schemas/rem.ts';

/**
 * Mobile homes among the homes the REM covers (single-family detached, attached, mobile): ACS gives
 * shares of all housing units, so the multi-unit share is taken out and the rest renormalised. Null when
 * the county has (almost) no such homes to renormalise over.
 */
export function remMobileHomeShare(
  county: Pick<CountyProfile, 'mobile_home_share' | 'multi_unit_share'>,
): number | null {
  const remUniverse = 1 - county.multi_unit_share;
  if (remUniverse < 0.005) return null;
  return Math.min(1, county.mobile_home_share / remUniverse);
}

/**
 * What the sampler needs of a county of the lake's `rem_counties` table: a profile, its station and, when
 * the row has them, its single-family heating-fuel shares.
 */
export function samplingCountyOf(
  county: CountyProfile & { station_id: string; heating_fuel_shares?: Record<Fuel, number> | undefined },
): SamplingCounty {
  return {
    state: county.state,
    countyFips: county.county_fips,
    climateZone: county.climate_zone,
    stationId: county.station_id,
    mobileHomeShare: remMobileHomeShare(county),
    heatingFuelShares: county.heating_fuel_shares ?? null,
  };
}
