import { describe, expect, it } from 'vitest';
import { ALL_ROWS, NO_PARTITION, profileTable } from '../../../data-lake/audit/table-profile.ts';
import { withMemoryDb } from '../../../data-lake/memory-db.ts';
import { INCENTIVES } from '../../../data-lake/tables/incentives.ts';
import { whole } from '../../../data-lake/tables/table-contract.ts';

/** Incentives as the lake stores them: JSON text for the amount, null for the federal state. */
const INCENTIVE_ROWS = `
  SELECT * FROM (VALUES
    ('CA-1', 'CA', '{"type":"dollar_amount","number":1000}', 'https://a.example', NULL),
    ('CA-2', 'CA', '{"type":"dollar_amount","number":3000,"maximum":5000}', NULL, NULL),
    ('CA-3', 'CA', '{"type":"percent","number":0.3}', NULL, '2026-01'),
    ('IRA-1', NULL, '{"type":"percent","number":0.3,"maximum":2000}', 'https://b.example', NULL)
  ) AS t(id, state, amount, more_info_url, start_date)`;

describe('profileTable', () => {
  it('counts rows and the watched columns’ nulls, and takes the measures’ medians, per partition', async () => {
    const profile = await withMemoryDb(async (db) => {
      await db.run(`CREATE TABLE incentives AS ${INCENTIVE_ROWS}`);
      return profileTable(db, 'incentives', INCENTIVES.contract);
    });
    expect(profile.rows).toBe(4);
    // low_income is watched but this table lacks it: not profiled.
    expect([...profile.columns]).toEqual(['more_info_url', 'start_date']);
    expect(profile.partitions.get('CA')).toEqual({
      rows: 3,
      nulls: { more_info_url: 2, start_date: 2 },
      measures: {
        'dollar amount': { median: 2000, values: 2 },
        'percent amount': { median: 0.3, values: 1 },
        'dollars per unit': { median: null, values: 0 },
        'amount maximum': { median: 5000, values: 1 },
      },
    });
    expect(profile.partitions.get('US')?.rows).toBe(1);
  });

  it('puts every row in one partition for a table compared as a whole, and names a null partition', async () => {
    const [asWhole, nullState] = await withMemoryDb(async (db) => {
      await db.run(`CREATE TABLE t AS SELECT * FROM (VALUES ('a', NULL), ('b', 'RI')) AS t(id, state)`);
      return [
        await profileTable(db, 't', whole(['id'], 0.1)),
        await profileTable(db, 't', { key: ['id'], partition: 'state', maxDrop: 0.1 }),
      ];
    });
    expect([...asWhole.partitions]).toEqual([[ALL_ROWS, { rows: 2, nulls: {}, measures: {} }]]);
    expect([...nullState.partitions.keys()].sort()).toEqual([NO_PARTITION, 'RI']);
  });
});
