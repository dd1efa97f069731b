import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { DefinitionsError, orderTables } from '../../pipeline/table-order.ts';
import { recordSchema } from '../../schemas/record-schema.ts';
import { whole } from '../../data-lake/tables/table-contract.ts';
import { tableRef } from '../../data-lake/tables/table-ref.ts';
import type { LakeTable } from '../../transform/tables/lake-table.ts';

/** A table that reads the tables and record schemas named. */
function table(name: string, inputs: { tables?: string[]; records?: string[] }): LakeTable {
  return {
    ...tableRef(name, z.object({}), whole([], 1)),
    schemaVersion: 1,
    code: [import.meta.url],
    description: name,
    inputs: {
      tables: (inputs.tables ?? []).map((input) => tableRef(input, z.object({}), whole([], 1))),
      records: (inputs.records ?? []).map((input) => recordSchema(input, z.object({}))),
    },
    build: async () => [],
  };
}

const names = (tables: LakeTable[]) => tables.map((t) => t.name);

describe('orderTables', () => {
  it('puts every table after the tables it reads, keeping definitions order otherwise', () => {
    const ordered = orderTables(
      [
        table('serving_states', { tables: ['programs', 'authorities'] }),
        table('programs', { records: ['program'] }),
        table('serving_zips', { tables: ['serving_states', 'zips'] }),
        table('authorities', { records: ['authority'] }),
        table('zips', { records: ['zip'] }),
      ],
      ['program', 'authority', 'zip'],
    );
    expect(names(ordered)).toEqual(['programs', 'authorities', 'serving_states', 'zips', 'serving_zips']);
  });

  it('rejects a dependency cycle, naming it', () => {
    const tables = [
      table('a', { records: ['r'] }),
      table('b', { tables: ['a', 'd'] }),
      table('c', { tables: ['b'] }),
      table('d', { tables: ['c'] }),
    ];
    expect(() => orderTables(tables, ['r'])).toThrow(
      new DefinitionsError('tables read each other in a cycle: b → d → c → b'),
    );
  });

  it('rejects unknown inputs, duplicate names and reserved or malformed names', () => {
    expect(() => orderTables([table('a', { tables: ['missing'] })], [])).toThrow(
      'table "a" reads table "missing", which is not in the definitions',
    );
    expect(() => orderTables([table('a', { records: ['nope'] })], ['yes'])).toThrow(
      'table "a" reads record schema "nope", which is not registered',
    );
    expect(() => orderTables([table('a', {}), table('a', {})], [])).toThrow('table "a" is declared twice');
    expect(() => orderTables([table('quarantine', {})], [])).toThrow('the name is reserved');
    expect(() => orderTables([table('Bad-Name', {})], [])).toThrow(
      'names are lower-case letters, digits and "_"',
    );
  });
});
