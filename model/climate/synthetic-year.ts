import { zoneMoisture, type Climate } from '../../schemas/rem.ts';
import { SplitMix64 } from '../random.ts';

/**
 * A deterministic synthetic weather year, calibrated so that it reproduces a station's HDD65 (and so CDD65,
 * since the mean is implied by both) and, as closely as the form allows, its design temperatures:
 *
 *   T(day, hour) = T_mean − A·c(day) + σ·f(day)·z(day) + D·cos(2π(hour − 15)/24),
 *   c(day) = cos(2π(day − 16)/365),  f(day) = 0.3 + 0.7·((1 + c(day)) / 2)²
 *
 * with z an AR(1) "weather system" sequence (φ = 0.7, standardised, the same for every station), A the
 * seasonal amplitude and σ the midwinter day-to-day spread, both fitted. The spread falls to 0.3 σ in
 * summer (f(day) below): US winters swing with cold outbreaks, summers much less (approx., from the shape
 * of NOAA daily records). D is half the typical diurnal range by
 * moisture regime (approx., from NOAA normal daily max − min: humid ≈ 18 °F, dry ≈ 26 °F, marine ≈ 14 °F).
 * This is the proposal of the project's REM notes (§5.2): a TMY stand-in built from normals, not a TMY.
 */

export const HOURS_PER_YEAR = 8760;
const DAYS = 365;
const SYNOPTIC_SEED = 0x5eed2020n;
const SYNOPTIC_PERSISTENCE = 0.7;
/** Coldest day of the year (≈ 17 January), the phase of the seasonal cycle. */
const COLDEST_DAY = 16;
const WARMEST_HOUR = 15;
/** Temperature bin width for the bin method, °F. */
const BIN_WIDTH_F = 2;
/** Upper end of the midwinter day-to-day spread searched by the fit, °F. */
const MAX_SPREAD_F = 25;

export interface SyntheticYear {
  hourlyTempF: Float64Array;
  /** Global horizontal irradiance, W/m², hourly mean. */
  hourlyGhiWm2: Float64Array;
  seasonalAmplitudeF: number;
  synopticSdF: number;
  diurnalAmplitudeF: number;
}

/** Hours of the year grouped by outdoor temperature, for the bin method. */
export interface WeatherBins {
  /** Mean dry-bulb of the bin's hours, °F. */
  tempF: Float64Array;
  hours: Float64Array;
  /** Mean global horizontal irradiance of the bin's hours, W/m². */
  ghiWm2: Float64Array;
}

const synoptic = standardisedAr1(new SplitMix64(SYNOPTIC_SEED), SYNOPTIC_PERSISTENCE, DAYS);
/** −1 on the coldest day, +1 half a year later. */
const seasonal = Float64Array.from(
  { length: DAYS },
  (_, d) => -Math.cos((2 * Math.PI * (d - COLDEST_DAY)) / DAYS),
);
/** Day-to-day anomaly: full spread in midwinter, 0.3 of it in summer. */
const anomaly = synoptic.map((z, d) => z * (0.3 + 0.7 * ((1 - seasonal[d]!) / 2) ** 2));
const diurnal = Float64Array.from({ length: 24 }, (_, h) =>
  Math.cos((2 * Math.PI * (h - WARMEST_HOUR)) / 24),
);

function standardisedAr1(rng: SplitMix64, phi: number, n: number): Float64Array {
  const z = new Float64Array(n);
  let previous = 0;
  for (let i = 0; i < n; i++) {
    previous = phi * previous + Math.sqrt(1 - phi * phi) * rng.normal();
    z[i] = previous;
  }
  const mean = z.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(z.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return z.map((v) => (v - mean) / sd);
}

export function diurnalAmplitudeF(climate: Climate): number {
  const moisture = zoneMoisture(climate.climateZone);
  if (moisture === 'B') return 13;
  if (moisture === 'C') return 7;
  return 9;
}

function heatingDegreeDays(meanF: number, amplitude: number, sd: number): number {
  let hdd = 0;
  for (let d = 0; d < DAYS; d++) {
    const t = meanF + amplitude * seasonal[d]! + sd * anomaly[d]!;
    if (t < 65) hdd += 65 - t;
  }
  return hdd;
}

/** Seasonal amplitude that gives the station's HDD65 for a given day-to-day spread (HDD grows with A). */
function fitAmplitude(climate: Climate, sd: number): number {
  let lo = 0;
  let hi = 60;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (heatingDegreeDays(climate.meanTempF, mid, sd) < climate.hdd65) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function hourlyTemperatures(meanF: number, amplitude: number, sd: number, diurnalF: number): Float64Array {
  const temps = new Float64Array(HOURS_PER_YEAR);
  for (let d = 0; d < DAYS; d++) {
    const daily = meanF + amplitude * seasonal[d]! + sd * anomaly[d]!;
    for (let h = 0; h < 24; h++) temps[d * 24 + h] = daily + diurnalF * diurnal[h]!;
  }
  return temps;
}

/**
 * The 1st and 99th percentiles of hourly temperatures: what ASHRAE's 99 % heating and 1 % cooling design
 * dry-bulbs measure.
 */
function designPercentiles(temps: Float64Array): [number, number] {
  const scratch = Float64Array.from(temps);
  return [
    selectKth(scratch, Math.floor(0.01 * temps.length)),
    selectKth(scratch, Math.floor(0.99 * temps.length)),
  ];
}

/** The k-th smallest value (Hoare's quickselect, in place): O(n) where a sort would be O(n log n). */
function selectKth(values: Float64Array, k: number): number {
  let left = 0;
  let right = values.length - 1;
  while (left < right) {
    const pivot = values[(left + right) >> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return values[k]!;
}

function hourlyIrradiance(climate: Climate): Float64Array {
  const ghi = new Float64Array(HOURS_PER_YEAR);
  for (let d = 0; d < DAYS; d++) {
    // Summer days carry more energy and last longer (±35 % energy, ±2.5 h day length: a mid-latitude
    // approximation, not a solar-geometry model).
    const season = Math.cos((2 * Math.PI * (d - 172)) / DAYS);
    const dailyWh = climate.ghiKwhM2Day * 1000 * (1 + 0.35 * season);
    const dayLength = 12 + 2.5 * season;
    const sunrise = 12 - dayLength / 2;
    let weightSum = 0;
    for (let h = 0; h < 24; h++) {
      const x = (h + 0.5 - sunrise) / dayLength;
      const w = x > 0 && x < 1 ? Math.sin(Math.PI * x) : 0;
      ghi[d * 24 + h] = w;
      weightSum += w;
    }
    for (let h = 0; h < 24; h++) ghi[d * 24 + h] = (ghi[d * 24 + h]! / weightSum) * dailyWh;
  }
  return ghi;
}

/**
 * Fits A and σ: for each σ on a grid, A is solved from HDD65 (σ values whose A would have to be negative are
 * infeasible); the σ whose hourly 1st and 99th percentiles come closest to the 99 % heating and 1 % cooling
 * design temperatures (sum of absolute misses) is kept.
 */
export function syntheticYear(climate: Climate): SyntheticYear {
  const diurnalF = diurnalAmplitudeF(climate);
  let best = { sd: 0, amplitude: fitAmplitude(climate, 0), miss: Infinity };
  const tryStep = (sd: number): void => {
    if (sd < 0 || heatingDegreeDays(climate.meanTempF, 0, sd) > climate.hdd65) return;
    const amplitude = fitAmplitude(climate, sd);
    const [cold, hot] = designPercentiles(hourlyTemperatures(climate.meanTempF, amplitude, sd, diurnalF));
    const miss = Math.abs(cold - climate.heatingDesignF) + Math.abs(hot - climate.coolingDesignF);
    if (miss < best.miss) best = { sd, amplitude, miss };
  };
  // A coarse scan, then a fine one around the best coarse step.
  for (let sd = 0; sd <= MAX_SPREAD_F; sd += 1) tryStep(sd);
  const coarse = best.sd;
  for (let sd = coarse - 1; sd <= coarse + 1; sd += 0.1) tryStep(sd);
  return {
    hourlyTempF: hourlyTemperatures(climate.meanTempF, best.amplitude, best.sd, diurnalF),
    hourlyGhiWm2: hourlyIrradiance(climate),
    seasonalAmplitudeF: best.amplitude,
    synopticSdF: best.sd,
    diurnalAmplitudeF: diurnalF,
  };
}

export function binYear(year: SyntheticYear): WeatherBins {
  let min = Infinity;
  let max = -Infinity;
  for (const t of year.hourlyTempF) {
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const first = Math.floor(min / BIN_WIDTH_F);
  const count = Math.floor(max / BIN_WIDTH_F) - first + 1;
  const hours = new Float64Array(count);
  const tempSum = new Float64Array(count);
  const ghiSum = new Float64Array(count);
  year.hourlyTempF.forEach((t, i) => {
    const bin = Math.floor(t / BIN_WIDTH_F) - first;
    hours[bin]! += 1;
    tempSum[bin]! += t;
    ghiSum[bin]! += year.hourlyGhiWm2[i]!;
  });
  const used = [...hours.keys()].filter((b) => hours[b]! > 0);
  return {
    tempF: Float64Array.from(used, (b) => tempSum[b]! / hours[b]!),
    hours: Float64Array.from(used, (b) => hours[b]!),
    ghiWm2: Float64Array.from(used, (b) => ghiSum[b]! / hours[b]!),
  };
}

const binsByStation = new Map<string, WeatherBins>();

/** The station's temperature bins, built once per station and process. */
export function weatherBins(climate: Climate): WeatherBins {
  let bins = binsByStation.get(climate.id);
  if (!bins) {
    bins = binYear(syntheticYear(climate));
    binsByStation.set(climate.id, bins);
  }
  return bins;
}
