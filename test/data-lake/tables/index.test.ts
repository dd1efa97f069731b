import { describe, expect, it } from 'vitest';
import { LAKE_TABLES } from '../../../data-lake/tables/index.ts';
import { QUARANTINE } from '../../../data-lake/tables/pipeline.ts';
import { lakeTables } from '../../../transform/tables/index.ts';

describe('LAKE_TABLES', () => {
  it('names every table the pipeline builds, the quarantine included, once', () => {
    const built = [...lakeTables.map((table) => table.name), QUARANTINE.name];
    expect([...LAKE_TABLES.map((table) => table.name)].sort()).toEqual([...built].sort());
    expect(new Set(LAKE_TABLES.map((table) => table.name)).size).toBe(LAKE_TABLES.length);
  });

  it('gives each built table the contract its reference declares', () => {
    for (const table of lakeTables) {
      expect(table.contract, table.name).toBe(LAKE_TABLES.find((ref) => ref.name === table.name)!.contract);
    }
  });
});
