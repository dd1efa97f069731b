import { describe, expect, it } from 'vitest';
import { climateStationSchema } from '../../../schemas/rem.ts';
import { allClimates, climateById, climateFromStation } from '../../../model/climate/climate.ts';
import { CLIMATE_STATIONS } from '../../../model/climate/stations.ts';
import { binYear, syntheticYear, weatherBins } from '../../../model/climate/synthetic-year.ts';
import { assignStation, greatCircleKm } from '../../../model/climate/assign-station.ts';
import { stateClimates } from '../../../model/climate/location-climate.ts';
import { STATE_CLIMATES } from '../../../model/parameters/locations.ts';

function dailyDegreeDays(hourly: Float64Array): { hdd: number; cdd: number } {
  let hdd = 0;
  let cdd = 0;
  for (let d = 0; d < 365; d++) {
    let sum = 0;
    for (let h = 0; h < 24; h++) sum += hourly[d * 24 + h]!;
    const mean = sum / 24;
    hdd += Math.max(0, 65 - mean);
    cdd += Math.max(0, mean - 65);
  }
  return { hdd, cdd };
}

const percentile = (values: Float64Array, p: number): number =>
  Float64Array.from(values).sort()[Math.floor(p * values.length)]!;

describe('climate stations', () => {
  it('are valid, uniquely named records', () => {
    for (const station of CLIMATE_STATIONS) expect(climateStationSchema.parse(station)).toEqual(station);
    expect(new Set(CLIMATE_STATIONS.map((s) => s.id)).size).toBe(CLIMATE_STATIONS.length);
  });

  it('derive the annual mean from the degree days, and ground and mains temperatures from the mean', () => {
    const chicago = climateFromStation(CLIMATE_STATIONS.find((s) => s.id === 'chicago-il')!);
    // 65 − (6,200 − 900) / 365
    expect(chicago.meanTempF).toBeCloseTo(50.479, 3);
    expect(chicago.groundTempF).toBeCloseTo(52.479, 3);
    expect(chicago.mainsTempF).toBeCloseTo(56.479, 3);
  });

  it('rejects an unknown station id', () => {
    expect(() => climateById('atlantis')).toThrow('unknown climate station "atlantis"');
  });
});

describe('synthetic weather year', () => {
  it("reproduces every station's HDD65 and CDD65 and comes near its design temperatures", () => {
    for (const climate of allClimates()) {
      const year = syntheticYear(climate);
      const { hdd, cdd } = dailyDegreeDays(year.hourlyTempF);
      expect(Math.abs(hdd - climate.hdd65), climate.id).toBeLessThanOrEqual(0.01 * climate.hdd65 + 1);
      expect(Math.abs(cdd - climate.cdd65), climate.id).toBeLessThanOrEqual(0.05 * climate.cdd65 + 30);
      expect(Math.abs(percentile(year.hourlyTempF, 0.01) - climate.heatingDesignF), climate.id).toBeLessThan(
        6,
      );
      expect(Math.abs(percentile(year.hourlyTempF, 0.99) - climate.coolingDesignF), climate.id).toBeLessThan(
        12,
      );
    }
  });

  it('is deterministic and puts winter in January and summer in July', () => {
    const chicago = climateById('chicago-il');
    const a = syntheticYear(chicago);
    expect(syntheticYear(chicago).hourlyTempF).toEqual(a.hourlyTempF);
    const mean = (from: number, to: number): number =>
      a.hourlyTempF.slice(from * 24, to * 24).reduce((s, t) => s + t, 0) / ((to - from) * 24);
    expect(mean(0, 31)).toBeLessThan(mean(181, 212) - 30);
  });

  it("spreads the station's mean daily irradiance over daylight hours", () => {
    const phoenix = climateById('phoenix-az');
    const year = syntheticYear(phoenix);
    const annualKwhM2 = year.hourlyGhiWm2.reduce((s, w) => s + w, 0) / 1000;
    expect(annualKwhM2 / 365).toBeCloseTo(phoenix.ghiKwhM2Day, 1);
    expect(year.hourlyGhiWm2[2]).toBe(0); // 2–3 a.m. on 1 January
    expect(year.hourlyGhiWm2[12]).toBeGreaterThan(0);
  });

  it('bins all 8,760 hours by temperature, keeping the mean temperature and irradiance', () => {
    const climate = climateById('atlanta-ga');
    const year = syntheticYear(climate);
    const bins = binYear(year);
    const hours = bins.hours.reduce((s, h) => s + h, 0);
    expect(hours).toBe(8760);
    const meanFromBins = bins.tempF.reduce((s, t, i) => s + t * bins.hours[i]!, 0) / hours;
    expect(meanFromBins).toBeCloseTo(year.hourlyTempF.reduce((s, t) => s + t, 0) / 8760, 6);
    const ghiFromBins = bins.ghiWm2.reduce((s, g, i) => s + g * bins.hours[i]!, 0);
    expect(ghiFromBins).toBeCloseTo(
      year.hourlyGhiWm2.reduce((s, g) => s + g, 0),
      3,
    );
    expect(weatherBins(climate)).toBe(weatherBins(climate));
  });
});

describe('location → climate table', () => {
  it("gives every state zone shares summing to 1, each zone matching its station's zone", () => {
    expect(Object.keys(STATE_CLIMATES)).toHaveLength(49);
    for (const [state, zones] of Object.entries(STATE_CLIMATES)) {
      expect(
        zones.reduce((s, [, share]) => s + share, 0),
        state,
      ).toBeCloseTo(1, 9);
      for (const [zone, , stationId] of zones) expect(climateById(stationId).climateZone, state).toBe(zone);
    }
  });
});

describe('stateClimates', () => {
  it("gives a state's households by climate zone and station", () => {
    expect(stateClimates('WA')!.map((s) => [s.climateZone, s.climate.id, s.share])).toEqual([
      ['4C', 'seattle-wa', 0.75],
      ['5B', 'spokane-wa', 0.25],
    ]);
  });

  it('knows no state outside the contiguous US + DC', () => {
    expect(stateClimates('AK')).toBeUndefined();
    expect(stateClimates('PR')).toBeUndefined();
  });
});

describe('assignStation', () => {
  const station = (id: string) => CLIMATE_STATIONS.find((s) => s.id === id)!;

  it('measures great-circle distances', () => {
    // Boston Logan to Providence T. F. Green airports: ≈ 79 km.
    expect(greatCircleKm(42.36, -71.01, 41.72, -71.43)).toBeCloseTo(78.9, 0);
    expect(greatCircleKm(40, -100, 40, -100)).toBe(0);
  });

  it("picks the nearest station of the county's own zone, even when another zone's is nearer", () => {
    // Worcester County, MA (5A, 42.35 N 71.9 W): Boston and Providence are both 5A; Boston is nearer.
    expect(assignStation({ climateZone: '5A', latitude: 42.35, longitude: -71.9 }).id).toBe('boston-ma');
    // Garrett County, MD (5A, 39.5 N 79.3 W): Baltimore (4A) is nearer than Pittsburgh, but Pittsburgh is 5A.
    expect(assignStation({ climateZone: '5A', latitude: 39.5, longitude: -79.3 }).id).toBe('pittsburgh-pa');
    // St. Louis County, MN (7): Duluth.
    expect(assignStation({ climateZone: '7', latitude: 47.6, longitude: -92.5 }).id).toBe('duluth-mn');
    // Humboldt County, CA (4C): the nearest 4C station is Portland, OR.
    expect(assignStation({ climateZone: '4C', latitude: 40.7, longitude: -123.9 }).id).toBe('portland-or');
  });

  it('falls back to the nearest station of any zone when its zone has none', () => {
    const withoutZone5B = CLIMATE_STATIONS.filter((s) => s.climateZone !== '5B');
    // Denver County (5B) with no 5B station listed: Cheyenne (6B) is the nearest.
    expect(assignStation({ climateZone: '5B', latitude: 39.76, longitude: -104.88 }, withoutZone5B).id).toBe(
      'cheyenne-wy',
    );
  });

  it('breaks ties in list order and refuses an empty list', () => {
    const twin = { ...station('boston-ma'), id: 'boston-twin' };
    expect(
      assignStation({ climateZone: '5A', latitude: 42, longitude: -71 }, [station('boston-ma'), twin]).id,
    ).toBe('boston-ma');
    expect(() => assignStation({ climateZone: '5A', latitude: 42, longitude: -71 }, [])).toThrow(
      'no climate stations',
    );
  });
});
