import { describe, expect, it } from 'vitest';
import { REM_TEST_KEY, remServerForSpecs } from '../../support/rem-lake-fixture.ts';

const server = remServerForSpecs('profile-validation');

const post = (body: unknown) =>
  server().app.inject({
    method: 'POST',
    url: '/api/v1/rem/profile',
    headers: { authorization: `Bearer ${REM_TEST_KEY}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const profile = (change: Record<string, unknown> = {}, features: Record<string, unknown> = {}) => ({
  upgrade: 'hvac__heat_pump_seer18_hspf10',
  heating_fuel: 'natural_gas',
  building_profile: { county: 'G4400070', building_features: features },
  ...change,
});

describe('POST /api/v1/rem/profile validation', () => {
  it.each([
    [
      'a feature out of range',
      profile({}, { geometry_stories: 9 }),
      'building_profile.building_features.geometry_stories',
      'must be at most 3',
      'debe ser como máximo 3',
    ],
    [
      'a floor area that is not a number',
      profile({}, { geometry_floor_area: 'big' }),
      'building_profile.building_features.geometry_floor_area',
      'must be a number',
      'debe ser un número',
    ],
    [
      'an option not in the list',
      profile({}, { hvac_cooling_type: ['Swamp Cooler'] }),
      'building_profile.building_features.hvac_cooling_type',
      'must be one of: ',
      'debe ser uno de: ',
    ],
    ['a missing fuel', profile({ heating_fuel: undefined }), 'heating_fuel', 'is required', 'es obligatorio'],
    ['an unknown upgrade', profile({ upgrade: 'solar' }), 'upgrade', 'must be one of: ', 'debe ser uno de: '],
    [
      'a missing profile',
      profile({ building_profile: undefined }),
      'building_profile',
      'is required',
      'es obligatorio',
    ],
    [
      // As on POST /api/v2/etools/health-impacts: a misspelt or unknown top-level field is refused.
      'a field the request does not have',
      profile({ zip: '02903' }),
      'zip',
      'is not a field of this request',
      'no es un campo de esta solicitud',
    ],
    [
      'a misspelt fuel field',
      { ...profile({ heating_fuel: undefined }), heating_fule: 'natural_gas' },
      'heating_fuel',
      'is required',
      'es obligatorio',
    ],
    [
      'a county code of the wrong form',
      profile({ building_profile: { county: 'Providence' } }),
      'building_profile.county',
      'must be a county GISJOIN (e.g. G4400070) or 5-digit FIPS code',
      'debe ser el GISJOIN de un condado (p. ej. G4400070) o su código FIPS de 5 dígitos',
    ],
  ])('answers %s with a 400 naming the field, in English and Spanish', async (_name, body, field, en, es) => {
    for (const [language, words] of [
      ['en', en],
      ['es', es],
    ] as const) {
      const response = await post({ ...body, language });
      expect(response.statusCode).toBe(400);
      const error = response.json();
      expect(Object.keys(error).sort()).toEqual(['error', 'field', 'message', 'statusCode']);
      expect(error).toMatchObject({ statusCode: 400, error: 'Bad Request', field });
      expect(error.message.startsWith(`${field}: ${words}`), error.message).toBe(true);
    }
  });

  it('answers a language it does not speak in English, naming the field and the languages', async () => {
    const response = await post(profile({ language: 'fr' }));
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'language: must be one of: en, es',
      field: 'language',
    });
  });

  it('answers a form or XML body 415 naming the content type, and plain text 400 naming the body', async () => {
    const send = (contentType: string, payload: string) =>
      server().app.inject({
        method: 'POST',
        url: '/api/v1/rem/profile',
        headers: { authorization: `Bearer ${REM_TEST_KEY}`, 'content-type': contentType },
        payload,
      });
    const unsupported = {
      statusCode: 415,
      error: 'Unsupported Media Type',
      message:
        'content-type: the body must be JSON; send one JSON object with the header "Content-Type: application/json"',
      field: 'content-type',
    };
    const form = 'upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas';
    expect((await send('application/x-www-form-urlencoded', form)).json()).toEqual(unsupported);
    expect((await send('application/xml', '<profile/>')).json()).toEqual(unsupported);
    // Fastify reads text/plain as a string, which is not the JSON object the route takes.
    expect((await send('text/plain', JSON.stringify(profile()))).json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'body: must be a JSON object',
      field: 'body',
    });
  });

  it('answers a body that is not an object, or none, naming the body', async () => {
    expect((await post([1])).json()).toMatchObject({ field: 'body', message: 'body: must be a JSON object' });
    const none = await server().app.inject({
      method: 'POST',
      url: '/api/v1/rem/profile',
      headers: { authorization: `Bearer ${REM_TEST_KEY}` },
    });
    expect(none.json()).toMatchObject({ statusCode: 400, field: 'body' });
  });
});
