import type { ClimateStation, ClimateZone } from '../../schemas/rem.ts';
import { CLIMATE_STATIONS } from './stations.ts';

/** Mean Earth radius (km, IUGG): distances only rank stations, so the spherical model is enough. */
const EARTH_RADIUS_KM = 6371.0088;

const radians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Great-circle distance in km between two points given in degrees (haversine). */
export function greatCircleKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = radians(lat2 - lat1);
  const dLon = radians(lon2 - lon1);
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(lat1)) * Math.cos(radians(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface PlaceInZone {
  climateZone: ClimateZone;
  latitude: number;
  longitude: number;
}

/**
 * The weather station that stands for a place's climate: the nearest station of its IECC zone (so the
 * degree days match the zone the place is in), or the nearest station of any zone when none of its zone is
 * listed. Ties go to the station listed first, so the answer never depends on iteration order.
 */
export function assignStation(
  place: PlaceInZone,
  stations: readonly ClimateStation[] = CLIMATE_STATIONS,
): ClimateStation {
  const nearest = (candidates: readonly ClimateStation[]): ClimateStation | undefined => {
    let best: ClimateStation | undefined;
    let bestKm = Infinity;
    for (const station of candidates) {
      const km = greatCircleKm(place.latitude, place.longitude, station.latitude, station.longitude);
      if (km < bestKm) {
        best = station;
        bestKm = km;
      }
    }
    return best;
  };
  const station = nearest(stations.filter((s) => s.climateZone === place.climateZone)) ?? nearest(stations);
  if (!station) throw new Error('no climate stations to assign from');
  return station;
}
