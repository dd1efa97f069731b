import { describe, expect, it } from 'vitest';
import { calculatorQuerySchema } from '../../../schemas/incentives/api.ts';
import { coerceQuery } from '../../../serve/http/query-validation.ts';

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
