import type { Climate } from '../../schemas/rem.ts';
import { COUNTY_STATIONS, STATE_CLIMATES } from '../parameters/locations.ts';
import { climateById } from './climate.ts';

/** One climate a location's households live in, with their share. */
export interface ClimateShare {
  climate: Climate;
  share: number;
}

const stateShares = new Map(
  Object.entries(STATE_CLIMATES).map(([state, zones]) => [
    state,
    zones.map(([, share, stationId]): ClimateShare => ({ climate: climateById(stationId), share })),
  ]),
);

/**
 * The climate table keyed by location: a listed county's own station, else its state's household shares by
 * climate zone. A county listed under another state (its FIPS code starts with that state's code) does not
 * override. Undefined for a state outside the contiguous US + DC.
 */
export function climateSharesFor(state: string, countyFips?: string): readonly ClimateShare[] | undefined {
  const shares = stateShares.get(state);
  if (!shares || countyFips === undefined) return shares;
  const stationId = COUNTY_STATIONS[countyFips];
  if (stationId === undefined) return shares;
  const climate = climateById(stationId);
  return climate.state === state ? [{ climate, share: 1 }] : shares;
}
