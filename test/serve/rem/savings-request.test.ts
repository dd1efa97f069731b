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
    expect(readyRemData({ data, serverVersionJson: '{}' }, remMessages.en, null)).toBe(data);
    const error = thrown(() => readyRemData({ data: null, serverVersionJson: '{}' }, remMessages.es, null));
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

  it('while a precompute runs, says how far it is and asks to come back when all of it should be over', () => {
    const progress = {
      step: 'simulate clusters',
      count: 3441,
      total: 13_764,
      unit: 'clusters',
      left: { lowMs: 89_500, highMs: 89_500 },
    };
    const en = thrown(() => readyRemData({ data: null, serverVersionJson: '{}' }, remMessages.en, progress));
    expect([en.statusCode, en.code, en.headers]).toEqual([503, 'MODULE_NOT_READY', { 'retry-after': '90' }]);
    expect(en.message).toBe(
      'REM estimates are being precomputed (now simulate clusters: 3,441 of 13,764 clusters, 25%; about 2 min left ' +
        'in all); retry later',
    );
    const es = thrown(() =>
      readyRemData({ data: null, serverVersionJson: '{}' }, remMessages.es, {
        ...progress,
        left: undefined,
      }),
    );
    expect(es.headers).toEqual({ 'retry-after': '30' });
    const leftText = (left: { lowMs: number; highMs: number }, texts = remMessages.en) => {
      const error = thrown(() =>
        readyRemData({ data: null, serverVersionJson: '{}' }, texts, { ...progress, left }),
      );
      return [error.headers, error.message.match(/(about|quedan) .* (left in all|en total)/)?.[0]];
    };
    // Under a minute, in tens of seconds.
    expect(leftText({ lowMs: 31_000, highMs: 31_000 })).toEqual([
      { 'retry-after': '31' },
      'about 40 s left in all',
    ]);
    // A range before the work has been timed, asking to come back at its low end.
    expect(leftText({ lowMs: 100_000, highMs: 760_000 })).toEqual([
      { 'retry-after': '100' },
      'about 2–13 min left in all',
    ]);
    expect(leftText({ lowMs: 40_000, highMs: 700_000 }, remMessages.es)).toEqual([
      { 'retry-after': '40' },
      'quedan unos 40 s–12 min en total',
    ]);
    expect(es.message).toBe(
      'Las estimaciones REM se están precalculando (ahora simulate clusters: 3.441 de 13.764 clusters, 25 %); ' +
        'vuelva a intentarlo más tarde',
    );
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
