import type { Climate, ClimateStation } from '../../schemas/rem.ts';
import { CLIMATE_STATIONS } from './stations.ts';

/**
 * Deep ground is a little warmer than the mean air (snow cover, solar absorption at the surface):
 * ASHRAE Handbook—HVAC Applications, Ch. 35 (geothermal energy) puts it about 2–3 °F above the annual mean
 * air temperature (approx.).
 */
const GROUND_OFFSET_F = 2;

/**
 * Mains water runs about 6 °F above the annual mean air temperature on average (Burch & Christensen 2007,
 * "Towards development of an algorithm for mains water temperature", the formula used by the Building
 * America House Simulation Protocols, NREL/TP-550-49426).
 */
const MAINS_OFFSET_F = 6;

/** A station with the quantities its normals imply. */
export function climateFromStation(station: ClimateStation): Climate {
  // Σ over days of (65 − T_day) = HDD65 − CDD65 exactly, so the annual mean follows from the degree days.
  const meanTempF = 65 - (station.hdd65 - station.cdd65) / 365;
  return {
    ...station,
    meanTempF,
    groundTempF: meanTempF + GROUND_OFFSET_F,
    mainsTempF: meanTempF + MAINS_OFFSET_F,
  };
}

const climatesById = new Map(CLIMATE_STATIONS.map((s) => [s.id, climateFromStation(s)]));

/** Every station's climate, keyed by station id. */
export function climateById(id: string): Climate {
  const climate = climatesById.get(id);
  if (!climate) throw new Error(`unknown climate station "${id}"`);
  return climate;
}

export function allClimates(): Climate[] {
  return [...climatesById.values()];
}
