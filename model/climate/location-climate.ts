import type { Climate, ClimateZone } from '../../schemas/rem.ts';
import { STATE_CLIMATES } from '../parameters/locations.ts';
import { climateById } from './climate.ts';

/** One climate a state's households live in: their IECC zone, the station standing for it, their share. */
export interface ZoneClimateShare {
  climateZone: ClimateZone;
  climate: Climate;
  share: number;
}

const byState = new Map(
  Object.entries(STATE_CLIMATES).map(([state, zones]) => [
    state,
    zones.map(([climateZone, share, stationId]): ZoneClimateShare => ({
      climateZone,
      climate: climateById(stationId),
      share,
    })),
  ]),
);

/** A state's households by climate zone, or undefined for a state outside the contiguous US + DC. */
export function stateClimates(state: string): readonly ZoneClimateShare[] | undefined {
  return byState.get(state);
}
