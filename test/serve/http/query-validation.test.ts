import { describe, expect, it } from 'vitest';
import { calculatorQuerySchema, statesQuerySchema } from '../../../schemas/incentives/api.ts';
import { HttpError } from '../../../serve/errors.ts';
import { coerceQuery, validateQuery } from '../../../serve/http/query-validation.ts';

describe('coerceQuery', () => {
  it('coerces like the reference: lone values become lists, one-element lists scalars, numeric text numbers', () => {
    expect(
      coerceQuery(
        {
          zip: ['02903'],
          authority_types: 'state',
          household_income: ' 5',
          household_size: '1e0',
          include_beta_states: 'true',
          unknown: 'kept out',
        },
        calculatorQuerySchema,
      ),
    ).toEqual({
      zip: '02903',
      authority_types: ['state'],
      household_income: 5,
      household_size: 1,
      include_beta_states: true,
    });
  });

  it('leaves what it cannot coerce for the schema to reject', () => {
    expect(
      coerceQuery(
        { household_income: '', household_size: 'a', include_beta_states: '1', zip: ['1', '2'] },
        calculatorQuerySchema,
      ),
    ).toEqual({
      household_income: '',
      household_size: 'a',
      include_beta_states: '1',
      zip: ['1', '2'],
    });
  });
});

describe('validateQuery', () => {
  it('returns the typed query with defaults', () => {
    expect(
      validateQuery(calculatorQuerySchema, {
        zip: '02903',
        owner_status: 'renter',
        household_income: '0',
        household_size: '8',
      }),
    ).toEqual({
      zip: '02903',
      owner_status: 'renter',
      household_income: 0,
      household_size: 8,
      language: 'en',
      include_beta_states: false,
    });
    expect(validateQuery(statesQuerySchema, {})).toEqual({ include_beta_states: false });
  });

  it('throws a 400 naming the first field at fault, in the requested language', () => {
    const attempt = () =>
      validateQuery(calculatorQuerySchema, {
        zip: '02903',
        owner_status: 'renter',
        household_income: '100000001',
        household_size: '2',
        language: 'es',
      });
    expect(attempt).toThrow(HttpError);
    try {
      attempt();
    } catch (error) {
      expect((error as HttpError).body()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'household_income: debe ser como máximo 100000000',
        field: 'household_income',
      });
    }
  });
});
