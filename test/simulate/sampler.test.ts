import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { homeSchema, type Fuel } from '../../schemas/rem.ts';
import { HOUSING_STOCK_VERSION } from '../../simulate/parameters/housing-stock.ts';
import { sampleHomes, type SampledHome } from '../../simulate/sampler/sample-homes.ts';

function samples(
  state: string,
  heatingFuel: Fuel,
  n: number,
  seed: number | bigint,
  extra: { countyFips?: string; waterHeaterFuel?: Fuel } = {},
): SampledHome[] {
  const location = extra.countyFips ? { state, countyFips: extra.countyFips } : { state };
  const conditions = extra.waterHeaterFuel
    ? { heatingFuel, waterHeaterFuel: extra.waterHeaterFuel }
    : { heatingFuel };
  const result = sampleHomes(location, conditions, n, seed);
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
    const result = sampleHomes({ state: 'OH' }, { heatingFuel: 'natural_gas' }, 3, 1);
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

  it('uses the county climate where the table has the county, else the state mix', () => {
    const duluth = samples('MN', 'natural_gas', 100, 5, { countyFips: '27137' });
    expect(new Set(duluth.map((s) => s.climate.id))).toEqual(new Set(['duluth-mn']));
    const unlisted = samples('MN', 'natural_gas', 300, 5, { countyFips: '27001' });
    expect(new Set(unlisted.map((s) => s.climate.id))).toEqual(new Set(['minneapolis-mn', 'duluth-mn']));
    const otherState = samples('MN', 'natural_gas', 50, 5, { countyFips: '17031' });
    expect(otherState.every((s) => s.climate.state === 'MN')).toBe(true);
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
    expect(sampleHomes({ state: 'AZ' }, { heatingFuel: 'fuel_oil' }, 10, 1)).toEqual({
      supported: false,
      reason: 'implausible_combination',
      message: 'fuel_oil heating is (almost) never found in AZ',
    });
    expect(sampleHomes({ state: 'FL' }, { heatingFuel: 'fuel_oil' }, 10, 1).supported).toBe(false);
    expect(sampleHomes({ state: 'MA' }, { heatingFuel: 'fuel_oil' }, 10, 1).supported).toBe(true);
  });

  it('reports a rare heating / water-heater pairing as implausible and suggests omitting the water-heater fuel', () => {
    const result = sampleHomes(
      { state: 'TX' },
      { heatingFuel: 'propane', waterHeaterFuel: 'natural_gas' },
      10,
      1,
    );
    expect(result).toMatchObject({ supported: false, reason: 'implausible_combination' });
    expect(result.supported === false && result.message).toContain('omit water_heater_fuel');
    expect(sampleHomes({ state: 'TX' }, { heatingFuel: 'propane' }, 10, 1).supported).toBe(true);
  });

  it('reports states outside the contiguous US as unsupported', () => {
    for (const state of ['AK', 'HI', 'PR']) {
      expect(sampleHomes({ state }, { heatingFuel: 'electricity' }, 10, 1)).toMatchObject({
        supported: false,
        reason: 'unsupported_location',
      });
    }
  });

  it('rejects malformed input, naming the field', () => {
    expect(() => sampleHomes({ state: 'Massachusetts' }, { heatingFuel: 'natural_gas' }, 10, 1)).toThrow(
      ZodError,
    );
    expect(() =>
      sampleHomes({ state: 'MA', countyFips: '25' }, { heatingFuel: 'natural_gas' }, 10, 1),
    ).toThrow(/countyFips/);
    expect(() => sampleHomes({ state: 'MA' }, { heatingFuel: 'wood' as Fuel }, 10, 1)).toThrow(/heatingFuel/);
    expect(() => sampleHomes({ state: 'MA' }, { heatingFuel: 'natural_gas' }, 0, 1)).toThrow(RangeError);
  });
});
