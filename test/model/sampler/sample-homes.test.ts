import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { homeSchema, type Fuel, type SamplingCounty } from '../../../schemas/rem.ts';
import { HOUSING_STOCK_VERSION } from '../../../model/parameters/housing-stock.ts';
import { sampleHomes, sampleStateHomes, type SampledHome } from '../../../model/sampler/sample-homes.ts';
import { remMobileHomeShare, samplingCountyOf } from '../../../model/sampler/sampling-county.ts';
import { ST_LOUIS_MN } from '../../support/rem-counties.ts';

function samples(
  state: string,
  heatingFuel: Fuel,
  n: number,
  seed: number | bigint,
  extra: { waterHeaterFuel?: Fuel } = {},
): SampledHome[] {
  const conditions = extra.waterHeaterFuel
    ? { heatingFuel, waterHeaterFuel: extra.waterHeaterFuel }
    : { heatingFuel };
  const result = sampleStateHomes(state, conditions, n, seed);
  if (!result.supported) throw new Error(result.message);
  return result.samples;
}

const stLouisMn = { ...ST_LOUIS_MN, station_id: 'duluth-mn' };

function countySamples(county: SamplingCounty, heatingFuel: Fuel, n: number, seed: number): SampledHome[] {
  const result = sampleHomes(county, { heatingFuel }, n, seed);
  if (!result.supported) throw new Error(result.message);
  return result.samples;
}

const share = (list: SampledHome[], test: (s: SampledHome) => boolean): number =>
  list.filter(test).length / list.length;

describe('sampleHomes', () => {
  it('is reproducible: the same seed gives the same homes, and a smaller batch is a prefix', () => {
    const a = samples('MA', 'natural_gas', 50, 12345);
    expect(samples('MA', 'natural_gas', 50, 12345)).toEqual(a);
    expect(samples('MA', 'natural_gas', 10, 12345)).toEqual(a.slice(0, 10));
    expect(samples('MA', 'natural_gas', 50, 12345n)).toEqual(a);
    expect(samples('MA', 'natural_gas', 50, 54321)).not.toEqual(a);
  });

  it('reports the parameter table version it drew from', () => {
    const result = sampleStateHomes('OH', { heatingFuel: 'natural_gas' }, 3, 1);
    expect(result).toMatchObject({ supported: true, parametersVersion: HOUSING_STOCK_VERSION });
  });

  it('draws valid homes with the requested heating fuel and no heat pumps', () => {
    for (const fuel of ['electricity', 'natural_gas', 'fuel_oil', 'propane'] as const) {
      for (const { home, climate } of samples('PA', fuel, 200, 9)) {
        expect(homeSchema.parse(home)).toEqual(home);
        expect(home.heatingFuel).toBe(fuel);
        expect(home.heatingType).not.toBe('heat_pump');
        expect(climate.state).toBe('PA');
        expect(home.climateZone).toBe(climate.climateZone);
      }
    }
  });

  it('fixes the water-heater fuel when it is given and samples it otherwise', () => {
    const fixed = samples('CT', 'fuel_oil', 200, 3, { waterHeaterFuel: 'electricity' });
    expect(fixed.every((s) => s.home.waterHeaterFuel === 'electricity')).toBe(true);
    const free = samples('CT', 'fuel_oil', 400, 3);
    expect(share(free, (s) => s.home.waterHeaterFuel === 'fuel_oil')).toBeGreaterThan(0.3);
    expect(share(free, (s) => s.home.waterHeaterFuel === 'electricity')).toBeGreaterThan(0.15);
  });

  it('places homes in the climate zones of their state', () => {
    const florida = samples('FL', 'electricity', 300, 5);
    expect(new Set(florida.map((s) => s.home.climateZone))).toEqual(new Set(['1A', '2A']));
    const minnesota = samples('MN', 'natural_gas', 300, 5);
    expect(new Set(minnesota.map((s) => s.home.climateZone))).toEqual(new Set(['6A', '7']));
  });

  it("draws a county's homes in its own zone and station, with its mobile-home share", () => {
    const county = samplingCountyOf(stLouisMn);
    expect(county).toEqual({
      state: 'MN',
      countyFips: '27137',
      climateZone: '7',
      stationId: 'duluth-mn',
      // 4.4 % of all units, 76.9 % of units are outside multi-unit buildings: 0.044 / 0.769.
      mobileHomeShare: expect.closeTo(0.0572, 4),
      heatingFuelShares: null,
    });
    const homes = countySamples(county, 'natural_gas', 400, 5);
    expect(new Set(homes.map((s) => s.climate.id))).toEqual(new Set(['duluth-mn']));
    expect(new Set(homes.map((s) => s.home.climateZone))).toEqual(new Set(['7']));
    const mobiles = share(homes, (s) => s.home.buildingType === 'mobile_home');
    expect(mobiles).toBeGreaterThan(0.02);
    expect(mobiles).toBeLessThan(0.1);
  });

  it("follows the county's mobile-home share, and the region's mix when the county has none", () => {
    const base = samplingCountyOf(stLouisMn);
    const trailerCounty = countySamples({ ...base, mobileHomeShare: 0.6 }, 'electricity', 400, 6);
    expect(share(trailerCounty, (s) => s.home.buildingType === 'mobile_home')).toBeGreaterThan(0.5);
    const none = countySamples({ ...base, mobileHomeShare: 0 }, 'electricity', 400, 6);
    expect(none.some((s) => s.home.buildingType === 'mobile_home')).toBe(false);
    // Midwest: 6 % mobile homes (ACS B25024).
    const regional = countySamples({ ...base, mobileHomeShare: null }, 'electricity', 1000, 6);
    expect(share(regional, (s) => s.home.buildingType === 'mobile_home')).toBeCloseTo(0.06, 1);
  });

  it('renormalises the ACS mobile-home share within single-family and mobile homes', () => {
    expect(remMobileHomeShare({ mobile_home_share: 0.145, multi_unit_share: 0.089 })).toBeCloseTo(
      0.159166,
      6,
    );
    expect(remMobileHomeShare({ mobile_home_share: 0.3, multi_unit_share: 0.5 })).toBeCloseTo(0.6, 9);
    // New York County: 97.9 % multi-unit, 0.1 % mobile.
    expect(remMobileHomeShare({ mobile_home_share: 0.001, multi_unit_share: 0.979 })).toBeCloseTo(0.0476, 4);
    expect(remMobileHomeShare({ mobile_home_share: 0, multi_unit_share: 1 })).toBeNull();
  });

  it('follows the conditional tables: older, basement homes up north; slab homes and central AC down south', () => {
    const north = samples('MI', 'natural_gas', 500, 8);
    const south = samples('TX', 'natural_gas', 500, 8);
    const mean = (list: SampledHome[], f: (s: SampledHome) => number): number =>
      list.reduce((s, x) => s + f(x), 0) / list.length;
    expect(mean(north, (s) => s.home.vintage)).toBeLessThan(mean(south, (s) => s.home.vintage));
    expect(share(north, (s) => s.home.foundation.endsWith('basement'))).toBeGreaterThan(0.5);
    expect(share(south, (s) => s.home.foundation === 'slab')).toBeGreaterThan(0.6);
    expect(share(south, (s) => s.home.coolingType === 'central_ac')).toBeGreaterThan(0.7);
    expect(share(north, (s) => s.home.ductLocation !== 'none')).toBeGreaterThan(0.7);
    const sizes = south.map((s) => s.home.floorAreaFt2).sort((a, b) => a - b);
    expect(sizes[250]).toBeGreaterThan(1400);
    expect(sizes[250]).toBeLessThan(2400);
  });

  it('gives mobile homes pier-and-beam foundations, one story and furnaces', () => {
    const mobiles = samples('AL', 'electricity', 600, 4).filter((s) => s.home.buildingType === 'mobile_home');
    expect(mobiles.length).toBeGreaterThan(30);
    for (const { home } of mobiles) {
      expect(home).toMatchObject({ foundation: 'pier_and_beam', stories: 1, heatingType: 'furnace' });
    }
  });

  it('reports a fuel the location (almost) never uses as an implausible combination', () => {
    expect(sampleStateHomes('AZ', { heatingFuel: 'fuel_oil' }, 10, 1)).toEqual({
      supported: false,
      reason: 'implausible_combination',
      message: 'fuel_oil heating is (almost) never found in AZ',
    });
    expect(sampleStateHomes('FL', { heatingFuel: 'fuel_oil' }, 10, 1).supported).toBe(false);
    expect(sampleStateHomes('MA', { heatingFuel: 'fuel_oil' }, 10, 1).supported).toBe(true);
    // A county answers for its state: Maricopa County gets no fuel-oil homes either.
    const maricopa = {
      state: 'AZ',
      countyFips: '04013',
      climateZone: '2B',
      stationId: 'phoenix-az',
      mobileHomeShare: 0.07,
    } as const;
    expect(sampleHomes(maricopa, { heatingFuel: 'fuel_oil' }, 10, 1)).toMatchObject({
      supported: false,
      reason: 'implausible_combination',
    });
  });

  it('reports a rare heating / water-heater pairing as implausible and suggests omitting the water-heater fuel', () => {
    const result = sampleStateHomes('TX', { heatingFuel: 'propane', waterHeaterFuel: 'natural_gas' }, 10, 1);
    expect(result).toMatchObject({ supported: false, reason: 'implausible_combination' });
    expect(result.supported === false && result.message).toContain('omit water_heater_fuel');
    expect(sampleStateHomes('TX', { heatingFuel: 'propane' }, 10, 1).supported).toBe(true);
  });

  it('reports states outside the contiguous US as unsupported', () => {
    for (const state of ['AK', 'HI', 'PR']) {
      expect(sampleStateHomes(state, { heatingFuel: 'electricity' }, 10, 1)).toMatchObject({
        supported: false,
        reason: 'unsupported_location',
      });
    }
  });

  it('rejects malformed input, naming the field', () => {
    const suffolk: SamplingCounty = {
      state: 'MA',
      countyFips: '25025',
      climateZone: '5A',
      stationId: 'boston-ma',
      mobileHomeShare: 0.01,
    };
    const gas = { heatingFuel: 'natural_gas' } as const;
    expect(() => sampleStateHomes('Massachusetts', gas, 10, 1)).toThrow(ZodError);
    expect(() => sampleHomes({ ...suffolk, countyFips: '25' }, gas, 10, 1)).toThrow(/countyFips/);
    expect(() => sampleHomes({ ...suffolk, climateZone: '8' as '7' }, gas, 10, 1)).toThrow(/climateZone/);
    expect(() => sampleHomes({ ...suffolk, mobileHomeShare: 1.5 }, gas, 10, 1)).toThrow(/mobileHomeShare/);
    expect(() => sampleHomes({ ...suffolk, stationId: 'atlantis' }, gas, 10, 1)).toThrow(
      'unknown climate station "atlantis"',
    );
    expect(() => sampleHomes(suffolk, { heatingFuel: 'wood' as Fuel }, 10, 1)).toThrow(/heatingFuel/);
    expect(() => sampleHomes(suffolk, gas, 0, 1)).toThrow(RangeError);
  });
});
