import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from '../../../serve/errors.ts';
import {
  describeIssue,
  issueField,
  localizedValidatorCompiler,
  validateRequest,
} from '../../../serve/http/request-validation.ts';
import { validationMessages } from '../../../serve/http/validation-messages.ts';

const body = z.strictObject({
  language: z.enum(['en', 'es']).default('en'),
  size: z.number().int().min(1).max(8),
  area: z.number().min(300).optional(),
  profile: z
    .object({
      county: z.string().regex(/^\d{5}$/),
      features: z.object({ kinds: z.array(z.enum(['a', 'b'])).optional() }).default({}),
    })
    .optional(),
});

const failure = (value: unknown, options: Parameters<typeof validateRequest>[2] = { whole: 'body' }) => {
  try {
    validateRequest(body, value, options);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).code).toBe('VALIDATION_FAILED');
    return (error as HttpError).body();
  }
  throw new Error('expected a 400');
};

describe('validateRequest', () => {
  it('returns the typed value with defaults', () => {
    expect(validateRequest(body, { size: 3, profile: { county: '44007' } }, { whole: 'body' })).toEqual({
      language: 'en',
      size: 3,
      profile: { county: '44007', features: {} },
    });
  });

  it('names the field at fault as a dotted path, a list as one field, in the language asked', () => {
    expect(failure({ size: 9 })).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'size: must be at most 8',
      field: 'size',
    });
    expect(failure({ size: 9, language: 'es' }).message).toBe('size: debe ser como máximo 8');
    expect(failure({ size: 1, profile: { county: '44007', features: { kinds: ['a', 'z'] } } })).toMatchObject(
      {
        field: 'profile.features.kinds',
        message: 'profile.features.kinds: must be one of: a, b',
      },
    );
    expect(failure({ size: 1, profile: {} }, { whole: 'body', language: 'es' })).toMatchObject({
      field: 'profile.county',
      message: 'profile.county: es obligatorio',
    });
    expect(failure({ size: 1, extra: true })).toMatchObject({
      field: 'extra',
      message: 'extra: is not a field of this request',
    });
    expect(failure([1])).toMatchObject({ field: 'body', message: 'body: must be a JSON object' });
  });

  it('tells an integer from any number', () => {
    expect(failure({ size: 'x' }).message).toBe('size: must be an integer');
    expect(failure({ size: 1, area: 'big' }).message).toBe('area: must be a number');
    expect(failure({ size: 1, area: 'big', language: 'es' }).message).toBe('area: debe ser un número');
  });

  it("uses a route's own words where it has them", () => {
    const ownMessage = (issue: z.core.$ZodIssue) =>
      issue.code === 'invalid_format' ? 'profile.county: give a 5-digit FIPS code' : undefined;
    expect(failure({ size: 1, profile: { county: 'G44' } }, { whole: 'body', ownMessage })).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'profile.county: give a 5-digit FIPS code',
      field: 'profile.county',
    });
  });
});

describe('describeIssue', () => {
  it('says "is required" for a missing field and otherwise what the field must be', () => {
    const [issue] = z.object({ n: z.number() }).safeParse({}).error!.issues;
    expect(describeIssue(issue!, undefined, validationMessages.en)).toBe('is required');
    expect(describeIssue(issue!, 'x', validationMessages.es)).toBe('debe ser un número entero');
  });
});

describe('issueField', () => {
  it('stops at the first list index and names an unknown key', () => {
    const issue = (path: PropertyKey[]) =>
      ({ code: 'invalid_type', expected: 'string', path, message: '' }) as never;
    expect(issueField(issue(['items', 2]), 'query')).toBe('items');
    expect(issueField(issue(['a', 'b', 0, 'c']), 'body')).toBe('a.b');
    expect(issueField(issue([]), 'body')).toBe('body');
    expect(
      issueField({ code: 'unrecognized_keys', keys: ['zz'], path: ['a'], message: '' } as never, 'body'),
    ).toBe('a.zz');
  });
});

describe('localizedValidatorCompiler', () => {
  const validate = localizedValidatorCompiler({
    schema: body,
    method: 'POST',
    url: '/x',
    httpPart: 'body',
  }) as (value: unknown) => { value?: unknown; error?: Error };

  it('returns, never throws, the localized 400 (Fastify makes a thrown one a 500)', () => {
    const result = validate({ size: 0, language: 'es' });
    expect(result.error).toBeInstanceOf(HttpError);
    expect((result.error as HttpError).body()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'size: debe ser como mínimo 1',
      field: 'size',
    });
    expect(validate(null).error?.message).toBe('body: must be a JSON object');
    expect(validate({ size: 2 })).toEqual({ value: { language: 'en', size: 2 } });
  });
});
