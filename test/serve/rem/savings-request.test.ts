import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../serve/errors.ts';
import { remMessages } from '../../../serve/rem/messages.ts';
import type { RemData } from '../../../serve/rem/rem-data.ts';
import {
  buildingNotSupported,
  readyRemData,
  requireWaterHeaterFuel,
} from '../../../serve/rem/savings-request.ts';

const thrown = (attempt: () => unknown): HttpError => {
  try {
    attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('expected an HttpError');
};

describe('readyRemData', () => {
  it('is the data, or module not ready (503, Retry-After 60) while the snapshot has no REM tables', () => {
    const data = {} as RemData;
    expect(readyRemData({ data, serverVersionJson: '{}' }, remMessages.en)).toBe(data);
    const error = thrown(() => readyRemData({ data: null, serverVersionJson: '{}' }, remMessages.es));
    expect([error.statusCode, error.code, error.headers]).toEqual([
      503,
      'MODULE_NOT_READY',
      { 'retry-after': '60' },
    ]);
    expect(error.body()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: remMessages.es.remUnavailable,
    });
  });
});

describe('requireWaterHeaterFuel', () => {
  it("asks for the water heater's fuel for the water-heater upgrade only", () => {
    expect(() => requireWaterHeaterFuel({ upgrade: 'baseline' }, remMessages.en)).not.toThrow();
    const error = thrown(() =>
      requireWaterHeaterFuel({ upgrade: 'water_heater__heat_pump_uef3.35' }, remMessages.en),
    );
    expect(error.body()).toMatchObject({ statusCode: 400, field: 'water_heater_fuel' });
  });
});

describe('buildingNotSupported', () => {
  it('names the water heater when its fuel was given, else the heating fuel', () => {
    expect(buildingNotSupported('fuel_oil', null, 'Lubbock County, TX', remMessages.en).field).toBe(
      'heating_fuel',
    );
    expect(buildingNotSupported('propane', 'natural_gas', 'Lubbock County, TX', remMessages.en).field).toBe(
      'water_heater_fuel',
    );
  });
});
