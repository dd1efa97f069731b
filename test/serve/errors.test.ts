import { describe, expect, it } from 'vitest';
import { errorBodySchema, errors, HttpError, toHttpError } from '../../serve/errors.ts';

describe('errors', () => {
  it('every factory yields a body of the one error shape, error being the reason phrase', () => {
    const made = [
      errors.validation('zip', 'Invalid string'),
      errors.badRequest('Body is not valid JSON'),
      errors.missingKey('en'),
      errors.invalidKey('es'),
      errors.unsupportedMediaType('en'),
      errors.bodyNotJson('es', 'emptyBody'),
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
      [415, 'BAD_REQUEST', 'Unsupported Media Type'],
      [400, 'BAD_REQUEST', 'Bad Request'],
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
    expect(toHttpError(e, 'es')).toEqual({ error: e, expected: true });
    expect(toHttpError(errors.snapshotUnavailable(), 'en').expected).toBe(true);
    expect(toHttpError(errors.geocoderUnavailable('The address service is unavailable'), 'en').expected).toBe(
      false,
    );
    expect(toHttpError(errors.internal(), 'en').expected).toBe(false);
  });

  it('keeps the status and message of a Fastify client error, naming the body', () => {
    const tooLarge = Object.assign(new RangeError('Request body is too large'), {
      statusCode: 413,
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    });
    const { error, expected } = toHttpError(tooLarge, 'es');
    expect(expected).toBe(true);
    expect(error.body()).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'Request body is too large',
      field: 'body',
    });
  });

  it("words an unsupported media type itself, in the request's language, saying what to send", () => {
    const fst = Object.assign(new Error('Unsupported Media Type'), {
      statusCode: 415,
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    });
    expect([toHttpError(fst, 'en'), toHttpError(fst, 'es')]).toEqual([
      { error: errors.unsupportedMediaType('en'), expected: true },
      { error: errors.unsupportedMediaType('es'), expected: true },
    ]);
    expect(errors.unsupportedMediaType('en').body()).toEqual({
      statusCode: 415,
      error: 'Unsupported Media Type',
      message:
        'content-type: the body must be JSON; send one JSON object with the header "Content-Type: application/json"',
      field: 'content-type',
    });
    expect(errors.unsupportedMediaType('es').body().message).toBe(
      'content-type: el cuerpo debe ser JSON; envíe un único objeto JSON con la cabecera "Content-Type: application/json"',
    );
  });

  it('turns anything else, even one claiming a 4xx, into a generic 500', () => {
    const leaky = Object.assign(new Error('ECONNREFUSED 10.0.0.5:5432'), { statusCode: 400 });
    for (const thrown of [new Error('boom'), leaky, 'a string', null]) {
      const { error, expected } = toHttpError(thrown, 'en');
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
    expect(
      made.map((e) => [e.statusCode, e.code, e.headers, e.field, toHttpError(e, 'en').expected]),
    ).toEqual([
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
