import { describe, expect, it } from 'vitest';
import { errorBodySchema, errors, HttpError, toHttpError } from '../../serve/errors.ts';

describe('errors', () => {
  it('every factory yields a body of the one error shape, error being the reason phrase', () => {
    const made = [
      errors.validation('zip', 'Invalid string'),
      errors.badRequest('Body is not valid JSON'),
      errors.missingKey(),
      errors.invalidKey(),
      errors.notFound('GET', '/x'),
      errors.methodNotAllowed('PUT', '/x', ['GET', 'HEAD']),
      errors.rateLimited(42),
      errors.snapshotUnavailable(),
      errors.internal(),
    ];
    expect(made.map((e) => [e.statusCode, e.code, e.body().error])).toEqual([
      [400, 'VALIDATION_FAILED', 'Bad Request'],
      [400, 'BAD_REQUEST', 'Bad Request'],
      [401, 'UNAUTHORIZED', 'Unauthorized'],
      [401, 'UNAUTHORIZED', 'Unauthorized'],
      [404, 'NOT_FOUND', 'Not Found'],
      [405, 'METHOD_NOT_ALLOWED', 'Method Not Allowed'],
      [429, 'RATE_LIMITED', 'Too Many Requests'],
      [503, 'SNAPSHOT_UNAVAILABLE', 'Service Unavailable'],
      [500, 'INTERNAL', 'Internal Server Error'],
    ]);
    for (const e of made) expect(errorBodySchema.parse(e.body())).toEqual(e.body());
    expect(errors.validation('household.zip', 'Invalid string').body()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'household.zip: Invalid string',
      field: 'household.zip',
    });
    expect(errors.methodNotAllowed('PUT', '/x', ['GET', 'HEAD']).headers).toEqual({ allow: 'GET, HEAD' });
  });
});

describe('toHttpError', () => {
  it('passes an HttpError through; 5xx ones are unexpected unless they ask to come back later by design', () => {
    const e = errors.notFound('GET', '/x');
    expect(toHttpError(e)).toEqual({ error: e, expected: true });
    expect(toHttpError(errors.snapshotUnavailable()).expected).toBe(true);
    expect(toHttpError(errors.geocoderUnavailable('The address service is unavailable')).expected).toBe(
      false,
    );
    expect(toHttpError(errors.internal()).expected).toBe(false);
  });

  it('keeps the status and message of a Fastify client error', () => {
    const fst = Object.assign(new Error('Unsupported Media Type: text/csv'), {
      statusCode: 415,
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    });
    const { error, expected } = toHttpError(fst);
    expect(expected).toBe(true);
    expect(error.body()).toEqual({
      statusCode: 415,
      error: 'Unsupported Media Type',
      message: 'Unsupported Media Type: text/csv',
      field: 'content-type',
    });
  });

  it('turns anything else, even one claiming a 4xx, into a generic 500', () => {
    const leaky = Object.assign(new Error('ECONNREFUSED 10.0.0.5:5432'), { statusCode: 400 });
    for (const thrown of [new Error('boom'), leaky, 'a string', null]) {
      const { error, expected } = toHttpError(thrown);
      expect(expected).toBe(false);
      expect(error).toBeInstanceOf(HttpError);
      expect(error.body()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'Internal server error',
      });
    }
  });
});

describe('the errors of a service that is up but cannot answer yet', () => {
  it('each has its own code, 503, a Retry-After and the one body shape', () => {
    const made = [
      errors.moduleNotReady('REM estimates are not in the data being served yet; retry later'),
      errors.overloaded('Too many building profiles are being computed; retry in a second', 1),
      errors.geocoderUnavailable('The address service is unavailable; retry shortly.'),
    ];
    expect(made.map((e) => [e.statusCode, e.code, e.headers, e.field, toHttpError(e).expected])).toEqual([
      [503, 'MODULE_NOT_READY', { 'retry-after': '60' }, undefined, true],
      [503, 'OVERLOADED', { 'retry-after': '1' }, undefined, true],
      [503, 'GEOCODER_UNAVAILABLE', { 'retry-after': '30' }, 'address', false],
    ]);
    for (const e of made) {
      expect(errorBodySchema.parse(e.body())).toEqual(e.body());
      expect(e.body().error).toBe('Service Unavailable');
    }
  });

  it('a request error names its field, with the code of its kind', () => {
    expect(
      [
        errors.invalid('zip: bad', 'zip'),
        errors.badRequest('no', 'utility'),
        errors.notInData('gone', 'location'),
      ].map((e) => [e.statusCode, e.code, e.body()]),
    ).toEqual([
      [
        400,
        'VALIDATION_FAILED',
        { statusCode: 400, error: 'Bad Request', message: 'zip: bad', field: 'zip' },
      ],
      [400, 'BAD_REQUEST', { statusCode: 400, error: 'Bad Request', message: 'no', field: 'utility' }],
      [404, 'NOT_FOUND', { statusCode: 404, error: 'Not Found', message: 'gone', field: 'location' }],
    ]);
  });
});
