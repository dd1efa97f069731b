import { describe, expect, it } from 'vitest';
import {
  LOCAL_SHARE,
  REGIONAL_DECAY_KM,
  countyExposures,
  distanceKm,
  exposureGroupOf,
  redistribute,
} from '../../../model/health/exposure.ts';

// Three counties on one parallel: a dense city, its suburb 50 km east, and a rural county 1,200 km further.
const city = {
  county_fips: '00001',
  latitude: 40,
  longitude: -75,
  population: 1_600_000,
  land_area_km2: 60,
  households: 800_000,
};
const suburb = {
  county_fips: '00002',
  latitude: 40,
  longitude: -74.4129,
  population: 900_000,
  land_area_km2: 900,
  households: 350_000,
};
const rural = {
  county_fips: '00003',
  latitude: 40,
  longitude: -60,
  population: 10_000,
  land_area_km2: 4_000,
  households: 4_000,
};

describe('distanceKm', () => {
  it('measures great circles: a degree of latitude is 111 km, New York to Boston 306 km', () => {
    expect(distanceKm(40, -75, 41, -75)).toBeCloseTo(111.2, 1);
    expect(distanceKm(40.7128, -74.006, 42.3601, -71.0589)).toBeCloseTo(306.1, 0);
    expect(distanceKm(40, -75, 40, -75)).toBe(0);
  });
});

describe('countyExposures', () => {
  const exposures = countyExposures([city, suburb, rural]);
  const of = (c: { county_fips: string }) => exposures.get(c.county_fips)!;

  it('gives a dense county far more local exposure than a rural one: population over the width of its land', () => {
    // P / √A: 1,600,000 / √60 = 206,559; 900,000 / 30 = 30,000; 10,000 / √4000 = 158.
    expect(of(city).local / of(rural).local).toBeCloseTo(206_559 / 158.114, 0);
    expect(of(city).local / of(suburb).local).toBeCloseTo(206_559 / 30_000, 3);
  });

  it('counts the people around a county, decaying with distance, its own included', () => {
    const near = Math.exp(-distanceKm(40, -75, 40, -74.4129) / REGIONAL_DECAY_KM);
    // City: its own 1.6 M and the suburb's 0.9 M at 50 km; the rural county is beyond the cut-off.
    expect(of(city).regional / of(suburb).regional).toBeCloseTo(
      (1_600_000 + 900_000 * near) / (900_000 + 1_600_000 * near),
      9,
    );
    expect(of(rural).regional).toBeLessThan(of(suburb).regional / 50);
  });

  it('scales both terms to a household-weighted national mean of 1, and mixes them by pollutant', () => {
    const meanOf = (term: 'local' | 'regional') =>
      [city, suburb, rural].reduce((sum, c) => sum + c.households * of(c)[term], 0) / 1_154_000;
    expect(meanOf('local')).toBeCloseTo(1, 12);
    expect(meanOf('regional')).toBeCloseTo(1, 12);
    const e = of(city);
    expect(e.primary).toBeCloseTo(LOCAL_SHARE.primary * e.local + (1 - LOCAL_SHARE.primary) * e.regional, 12);
    expect(e.secondary).toBeCloseTo(
      LOCAL_SHARE.secondary * e.local + (1 - LOCAL_SHARE.secondary) * e.regional,
      12,
    );
    expect(exposureGroupOf('pm25')).toBe('primary');
    expect(exposureGroupOf('nox')).toBe('secondary');
    expect(exposureGroupOf('nh3')).toBe('secondary');
  });

  it('refuses a county without land', () => {
    expect(() => countyExposures([{ ...city, land_area_km2: 0 }])).toThrow(
      'county 00001: land area must be positive',
    );
  });
});

describe('redistribute', () => {
  it('keeps the emissions-weighted mean at the national figure while following the index', () => {
    const places = [
      { index: 4, emissions: 10 },
      { index: 1, emissions: 30 },
      { index: 0.25, emissions: 60 },
    ];
    const factors = redistribute(0.08, places);
    // Emissions-weighted mean index: (40 + 30 + 15) / 100 = 0.85.
    expect(factors).toEqual([
      expect.closeTo((0.08 * 4) / 0.85, 12),
      expect.closeTo(0.08 / 0.85, 12),
      expect.closeTo((0.08 * 0.25) / 0.85, 12),
    ]);
    const mean = places.reduce((sum, p, i) => sum + p.emissions * factors[i]!, 0) / 100;
    expect(mean).toBeCloseTo(0.08, 15);
  });

  it('leaves the figure as it is when it is zero or nothing is emitted', () => {
    expect(redistribute(0, [{ index: 3, emissions: 5 }])).toEqual([0]);
    expect(redistribute(0.05, [{ index: 3, emissions: 0 }])).toEqual([0.05]);
  });
});
