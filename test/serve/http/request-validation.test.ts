import type { FastifyServerOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calculatorQuerySchema, statesQuerySchema } from '../../../schemas/incentives/api.ts';
import { HttpError, type ErrorBody } from '../../../serve/errors.ts';
import {
  describeIssue,
  issueField,
  localizedValidationError,
  requestValidatorCompiler,
  type OwnMessage,
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

type Part = 'body' | 'querystring';
type Formatter = NonNullable<FastifyServerOptions['schemaErrorFormatter']>;

/** A request part through the server's validator compiler, as Fastify applies it to a route's schema. */
const validate = (schema: z.ZodType, value: unknown, httpPart: Part = 'body') =>
  (
    requestValidatorCompiler({ schema, method: 'GET', url: '/x', httpPart }) as (v: unknown) => {
      value?: unknown;
      error?: Parameters<Formatter>[0];
    }
  )(value);

/** The error body of a request part the schema refuses, worded by the formatter (with a route's own words). */
function failure(
  value: unknown,
  options: { schema?: z.ZodType; part?: Part; own?: OwnMessage } = {},
): ErrorBody {
  const part = options.part ?? 'body';
  const result = validate(options.schema ?? body, value, part);
  expect(result.error).toBeDefined();
  const error = localizedValidationError(options.own)(result.error!, part);
  expect(error).toBeInstanceOf(HttpError);
  expect((error as HttpError).code).toBe('VALIDATION_FAILED');
  return (error as HttpError).body();
}

describe('requestValidatorCompiler', () => {
  it('gives the part as the schema’s output, with defaults, and returns (never throws) a failure', () => {
    expect(validate(body, { size: 3, profile: { county: '44007' } })).toEqual({
      value: { language: 'en', size: 3, profile: { county: '44007', features: {} } },
    });
    expect(() => validate(body, null)).not.toThrow();
    expect(validate(body, null).error).toHaveLength(1);
  });

  it('coerces a query with the reference’s rules before validating it, and only a query', () => {
    expect(
      validate(
        calculatorQuerySchema,
        { zip: ['02903'], owner_status: 'renter', household_income: '0', household_size: '8', other: 'x' },
        'querystring',
      ),
    ).toEqual({
      value: {
        zip: '02903',
        owner_status: 'renter',
        household_income: 0,
        household_size: 8,
        language: 'en',
        include_beta_states: false,
      },
    });
    expect(validate(statesQuerySchema, {}, 'querystring')).toEqual({ value: { include_beta_states: false } });
    expect(validate(body, { size: '3' }).error).toBeDefined();
  });
});

describe('localizedValidationError', () => {
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
    expect(failure({ size: 1, profile: {}, language: 'es' })).toMatchObject({
      field: 'profile.county',
      message: 'profile.county: es obligatorio',
    });
    expect(failure({ size: 1, extra: true })).toMatchObject({
      field: 'extra',
      message: 'extra: is not a field of this request',
    });
    expect(failure([1])).toMatchObject({ field: 'body', message: 'body: must be a JSON object' });
  });

  it('words a query’s failure in the language the query asked for', () => {
    const query = {
      zip: '02903',
      owner_status: 'renter',
      household_income: '100000001',
      household_size: '2',
    };
    expect(
      failure({ ...query, language: 'es' }, { schema: calculatorQuerySchema, part: 'querystring' }),
    ).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'household_income: debe ser como máximo 100000000',
      field: 'household_income',
    });
  });

  it('words a schema rule’s own message in the language asked', () => {
    const both = {
      zip: '02903',
      address: '1 Main St',
      owner_status: 'renter',
      household_income: 1,
      household_size: 2,
    };
    const options = { schema: calculatorQuerySchema, part: 'querystring' as const };
    expect(failure(both, options)).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'zip: give exactly one of zip and address',
      field: 'zip',
    });
    expect(failure({ ...both, language: 'es' }, options).message).toBe(
      'zip: indique exactamente uno de zip y address',
    );
    const repeated = { ...both, address: undefined, items: ['ebike', 'ebike'], language: 'es' };
    expect(failure(repeated, options)).toMatchObject({
      field: 'items',
      message: 'items: no puede repetir valores',
    });
    const letters = { ...both, zip: 'ABCDE', address: undefined };
    expect(failure(letters, options)).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'zip: must be a five-digit ZIP code, such as 02116',
      field: 'zip',
    });
    expect(failure({ ...letters, language: 'es' }, options).message).toBe(
      'zip: debe ser un código postal de cinco dígitos, como 02116',
    );
    // A format of no known rule has no words of its own.
    expect(failure({ size: 1, profile: { county: 'G44' } }).message).toBe('profile.county: is invalid');
  });

  it('tells an integer from any number', () => {
    expect(failure({ size: 'x' }).message).toBe('size: must be an integer');
    expect(failure({ size: 1, area: 'big' }).message).toBe('area: must be a number');
    expect(failure({ size: 1, area: 'big', language: 'es' }).message).toBe('area: debe ser un número');
  });

  it("uses a route's own words where it has them, and the common ones elsewhere", () => {
    const own: OwnMessage = (issue, language) =>
      issue.code === 'invalid_format' ? `profile.county: (${language}) give a 5-digit FIPS code` : undefined;
    expect(failure({ size: 1, profile: { county: 'G44' }, language: 'es' }, { own })).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'profile.county: (es) give a 5-digit FIPS code',
      field: 'profile.county',
    });
    expect(failure({ size: 0 }, { own }).message).toBe('size: must be at least 1');
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
