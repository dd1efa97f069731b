import { describe, expect, it } from 'vitest';
import {
  fuelOilGallonsToKwh,
  kwhToFuelOilGallons,
  kwhToMmbtu,
  kwhToPropaneGallons,
  kwhToTherms,
  propaneGallonsToKwh,
  thermsToKwh,
} from '../../model/units.ts';

describe('site-energy unit conversions', () => {
  it('turns a therm into 29.31 kWh (100,000 Btu at 3,412.14 Btu/kWh)', () => {
    expect(thermsToKwh(1)).toBeCloseTo(29.307, 3);
    expect(thermsToKwh(800)).toBeCloseTo(23_445.6, 0);
  });

  it('turns a gallon of heating oil into 40.59 kWh and a gallon of propane into 26.80 kWh', () => {
    expect(fuelOilGallonsToKwh(1)).toBeCloseTo(40.59, 2);
    expect(propaneGallonsToKwh(1)).toBeCloseTo(26.8, 2);
  });

  it('round-trips every fuel unit', () => {
    expect(kwhToTherms(thermsToKwh(637.5))).toBeCloseTo(637.5, 9);
    expect(kwhToFuelOilGallons(fuelOilGallonsToKwh(512))).toBeCloseTo(512, 9);
    expect(kwhToPropaneGallons(propaneGallonsToKwh(700))).toBeCloseTo(700, 9);
  });

  it('expresses 22,507 kWh as the 76.8 MMBtu of the average 2020 US household', () => {
    expect(kwhToMmbtu(22_507)).toBeCloseTo(76.8, 1);
  });
});
