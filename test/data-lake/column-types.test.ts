import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { columnsOfRow, UnsupportedColumnError } from '../../data-lake/column-types.ts';

describe('columnsOfRow', () => {
  it('maps a zod row object to DuckDB columns in key order', () => {
    const row = z.object({
      zip: z.string().regex(/^\d{5}$/),
      state: z.enum(['CA', 'NY']),
      programs: z.int().nonnegative(),
      households: z.number().int(),
      amount_usd: z.number(),
      low_income: z.boolean(),
      starts: z.iso.date(),
      ends: z.iso.date().nullable(),
      note: z.string().optional(),
      tags: z.array(z.string()),
      bounds: z.object({ min: z.number(), max: z.number() }),
      shares: z.record(z.string(), z.number()),
      kind: z.literal('rebate'),
      level: z.union([z.literal('federal'), z.literal('state')]),
      weight: z.number().default(1),
      raw: z.unknown(),
    });

    expect(columnsOfRow('programs', row)).toEqual([
      { name: 'zip', type: 'VARCHAR', nullable: false },
      { name: 'state', type: 'VARCHAR', nullable: false },
      { name: 'programs', type: 'BIGINT', nullable: false },
      { name: 'households', type: 'BIGINT', nullable: false },
      { name: 'amount_usd', type: 'DOUBLE', nullable: false },
      { name: 'low_income', type: 'BOOLEAN', nullable: false },
      { name: 'starts', type: 'VARCHAR', nullable: false },
      { name: 'ends', type: 'VARCHAR', nullable: true },
      { name: 'note', type: 'VARCHAR', nullable: true },
      { name: 'tags', type: 'JSON', nullable: false },
      { name: 'bounds', type: 'JSON', nullable: false },
      { name: 'shares', type: 'JSON', nullable: false },
      { name: 'kind', type: 'VARCHAR', nullable: false },
      { name: 'level', type: 'VARCHAR', nullable: false },
      { name: 'weight', type: 'DOUBLE', nullable: false },
      { name: 'raw', type: 'JSON', nullable: true },
    ]);
  });

  it('refuses a field with no column type, naming table, column and zod type', () => {
    const row = z.object({ id: z.string(), seen: z.date() });
    expect(() => columnsOfRow('visits', row)).toThrow(UnsupportedColumnError);
    expect(() => columnsOfRow('visits', row)).toThrow(
      /^table visits, column seen: zod type "date" has no column type/,
    );
  });

  it('refuses a union of different column types and a row that is not an object', () => {
    expect(() => columnsOfRow('t', z.object({ v: z.union([z.string(), z.number()]) }))).toThrow(
      'table t, column v: zod type "union" has no column type',
    );
    expect(() => columnsOfRow('t', z.array(z.string()))).toThrow(
      'table t: its row schema must be a zod object, not "array"',
    );
  });
});
