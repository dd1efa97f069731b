import type { HealthPollutant } from '../../schemas/health-data.ts';

/**
 * How many people breathe what a county emits, relative to the nation: the population-exposure weighting
 * that spreads EPA's national deaths per tonne over counties (issue 16; docs/health-model.md).
 *
 * Two terms, each divided by its household-weighted national mean so that both are 1 for a typical home:
 * - local: the county's population over the width of its land, P / √A (people per km). In the urban box
 *   model (Marshall et al. 2005; Apte et al. 2012) the intake of a ground-level source spread over a city
 *   is P·Q / (u·H·√A): more people under the same plume, in a narrower box, breathe more of it;
 * - regional: the population around the county, Σ_j P_j·exp(−d_j / λ) over the counties j at distance d_j
 *   (its own at 0): what is carried away and breathed within a few hundred kilometres.
 * A pollutant's index mixes them by the share of its damage near the source. Primary PM2.5 is breathed
 * largely where it is emitted (Humbert et al. 2011: 44 vs 3.8 per million for ground-level urban vs rural
 * sources; Goodkind et al. 2019: a third of all PM2.5 damage within 8 km of the source); the secondary PM2.5
 * that NOx, SO2, NH3 and VOC form takes hours to form, far downwind, so its intake barely depends on the
 * source county (Humbert et al. recommend one value for urban and rural sources).
 */

/** e-folding distance of the regional term (km): team judgement for "a few hundred kilometres". */
export const REGIONAL_DECAY_KM = 200;
/** Counties farther than this many decay lengths add nothing measurable (exp(−5) < 0.7 %). */
const REGIONAL_CUTOFF = 5;

/** Share of a pollutant's exposure index taken by the local term: team judgement, from the literature above. */
export const LOCAL_SHARE = { primary: 0.5, secondary: 0.1 } as const;

export type ExposureGroup = keyof typeof LOCAL_SHARE;

/** Primary PM2.5 is breathed near where it is emitted; the precursors form PM2.5 far downwind. */
export const exposureGroupOf = (pollutant: HealthPollutant): ExposureGroup =>
  pollutant === 'pm25' ? 'primary' : 'secondary';

export interface ExposureCounty {
  county_fips: string;
  latitude: number;
  longitude: number;
  population: number;
  land_area_km2: number;
  /** Weights the national means (a typical home's county has index 1). */
  households: number;
}

export interface CountyExposure {
  /** P / √A over its national mean. */
  local: number;
  /** Σ P·exp(−d/λ) of the counties around it (itself included) over its national mean. */
  regional: number;
  primary: number;
  secondary: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const RADIANS = Math.PI / 180;

/** Great-circle distance (km) between two points given in degrees. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Each county's exposure index, by FIPS. */
export function countyExposures(counties: readonly ExposureCounty[]): Map<string, CountyExposure> {
  const n = counties.length;
  const local = new Float64Array(n);
  const regional = new Float64Array(n);
  const cutoff = REGIONAL_CUTOFF * REGIONAL_DECAY_KM;
  for (let i = 0; i < n; i++) {
    const c = counties[i]!;
    if (!(c.land_area_km2 > 0)) throw new RangeError(`county ${c.county_fips}: land area must be positive`);
    local[i] = c.population / Math.sqrt(c.land_area_km2);
    regional[i]! += c.population;
    for (let j = i + 1; j < n; j++) {
      const o = counties[j]!;
      // A degree of latitude is 111 km: most pairs are dismissed before the trigonometry.
      if (Math.abs(o.latitude - c.latitude) * 111 > cutoff) continue;
      const d = distanceKm(c.latitude, c.longitude, o.latitude, o.longitude);
      if (d > cutoff) continue;
      const decay = Math.exp(-d / REGIONAL_DECAY_KM);
      regional[i]! += o.population * decay;
      regional[j]! += c.population * decay;
    }
  }
  const meanLocal = householdMean(counties, local);
  const meanRegional = householdMean(counties, regional);
  const out = new Map<string, CountyExposure>();
  counties.forEach((c, i) => {
    const l = local[i]! / meanLocal;
    const r = regional[i]! / meanRegional;
    out.set(c.county_fips, {
      local: l,
      regional: r,
      primary: LOCAL_SHARE.primary * l + (1 - LOCAL_SHARE.primary) * r,
      secondary: LOCAL_SHARE.secondary * l + (1 - LOCAL_SHARE.secondary) * r,
    });
  });
  return out;
}

function householdMean(counties: readonly ExposureCounty[], values: Float64Array): number {
  let weighted = 0;
  let households = 0;
  counties.forEach((c, i) => {
    weighted += c.households * values[i]!;
    households += c.households;
  });
  if (!(weighted > 0)) throw new RangeError('no population to weight exposure by');
  return weighted / households;
}

/**
 * Factors per place whose emissions-weighted mean is exactly the national factor: place i gets
 * national × index_i / Σ_j(E_j·index_j)/Σ_j E_j, with E_j the emissions of place j. A redistribution, not a
 * recalibration: the national total for emissions spread like E is unchanged.
 */
export function redistribute(
  national: number,
  places: readonly { index: number; emissions: number }[],
): number[] {
  let weighted = 0;
  let emissions = 0;
  for (const p of places) {
    weighted += p.emissions * p.index;
    emissions += p.emissions;
  }
  if (national === 0 || !(emissions > 0)) return places.map(() => national);
  const mean = weighted / emissions;
  return places.map((p) => (national * p.index) / mean);
}
