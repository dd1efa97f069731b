import { describe, expect, it } from 'vitest';
import { anomalyFindings, type TableChange } from '../../../data-lake/audit/anomaly-audit.ts';
import {
  ALL_ROWS,
  type PartitionProfile,
  type TableProfile,
} from '../../../data-lake/audit/table-profile.ts';
import { INCENTIVES } from '../../../data-lake/tables/incentives.ts';
import { REM_CLUSTERS } from '../../../data-lake/tables/rem.ts';
import { whole } from '../../../data-lake/tables/table-contract.ts';

/** A profile from rows per partition, with optional nulls and measure medians per partition. */
function profile(
  partitions: Record<string, number | Partial<PartitionProfile>>,
  columns: string[] = [],
): TableProfile {
  const entries = Object.entries(partitions).map(([name, p]): [string, PartitionProfile] => [
    name,
    typeof p === 'number' ? { rows: p, nulls: {}, measures: {} } : { rows: 0, nulls: {}, measures: {}, ...p },
  ]);
  return {
    rows: entries.reduce((sum, [, p]) => sum + p.rows, 0),
    partitions: new Map(entries),
    columns: new Set(columns),
  };
}

const incentives = (before: TableProfile, after: TableProfile): TableChange => ({
  table: 'incentives',
  contract: INCENTIVES.contract,
  before,
  after,
  settingsBefore: {},
  settingsAfter: {},
});

/** The national incentives' largest states, as a published snapshot had them. */
const PUBLISHED = { US: 60, CA: 147, TX: 81, MA: 212, RI: 58, VT: 9, NY: 300, WA: 200 };

describe('anomalyFindings', () => {
  it('holds a state whose incentives were emptied, naming it with its rows before and after', () => {
    const findings = anomalyFindings(incentives(profile(PUBLISHED), profile({ ...PUBLISHED, CA: 0 })));
    expect(findings).toEqual([
      {
        table: 'incentives',
        check: 'partition-emptied',
        severity: 'hold',
        message: 'a partition that had rows has none',
        count: 1,
        examples: ['CA: 147 → 0 rows'],
        partition: 'CA',
        before: 147,
        after: 0,
      },
    ]);
  });

  it('holds states whose folder is missing, the largest loss first', () => {
    const { CA: _ca, TX: _tx, ...rest } = PUBLISHED;
    const [finding] = anomalyFindings(incentives(profile(PUBLISHED), profile(rest)));
    expect(finding).toMatchObject({
      check: 'partition-emptied',
      severity: 'hold',
      message: '2 partitions that had rows have none',
      count: 2,
      examples: ['CA: 147 → 0 rows', 'TX: 81 → 0 rows'],
    });
    expect(finding).not.toHaveProperty('partition');
  });

  it('holds a state losing more than a quarter of its incentives, not one losing a few', () => {
    const findings = anomalyFindings(
      incentives(profile(PUBLISHED), profile({ ...PUBLISHED, MA: 150, RI: 55, VT: 5 })),
    );
    // MA lost 62 of 212 (29 %); RI 3 (5 %); VT 4 of 9 (44 %, but fewer rows than any update may drop).
    expect(findings).toEqual([
      expect.objectContaining({
        check: 'partition-drop',
        severity: 'hold',
        message: 'a partition lost more than 25 % of its rows',
        examples: ['MA: 212 → 150 rows'],
      }),
    ]);
  });

  it('lets an ordinary update through: a few incentives gone, others added, a state new', () => {
    const after = profile({ ...PUBLISHED, CA: 140, TX: 85, MA: 210, NM: 12 });
    expect(anomalyFindings(incentives(profile(PUBLISHED), after))).toEqual([]);
  });

  it('holds a whole source emptied', () => {
    expect(anomalyFindings(incentives(profile(PUBLISHED), profile({})))).toEqual([
      expect.objectContaining({ check: 'partition-emptied', count: 8 }),
      {
        table: 'incentives',
        check: 'table-emptied',
        severity: 'hold',
        message: 'the table had 1,067 rows and has none',
        before: 1_067,
        after: 0,
      },
    ]);
  });

  it('holds a table compared as a whole that lost more than its contract allows', () => {
    const change: TableChange = {
      table: 'zcta_geographies',
      contract: whole(['zcta', 'geography_id'], 0.1),
      before: profile({ [ALL_ROWS]: 40_000 }),
      after: profile({ [ALL_ROWS]: 35_000 }),
      settingsBefore: {},
      settingsAfter: {},
    };
    expect(anomalyFindings(change)).toEqual([
      expect.objectContaining({
        check: 'table-drop',
        message: 'the table lost more than 10 % of its rows: 40,000 → 35,000',
      }),
    ]);
    expect(anomalyFindings({ ...change, after: profile({ [ALL_ROWS]: 37_000 }) })).toEqual([]);
  });

  it('holds a usually filled column going null (a field renamed upstream)', () => {
    const before = profile(
      { CA: { rows: 100, nulls: { more_info_url: 10 } }, MA: { rows: 100, nulls: { more_info_url: 20 } } },
      ['more_info_url'],
    );
    const after = profile(
      { CA: { rows: 100, nulls: { more_info_url: 100 } }, MA: { rows: 100, nulls: { more_info_url: 20 } } },
      ['more_info_url'],
    );
    expect(anomalyFindings(incentives(before, after))).toEqual([
      {
        table: 'incentives',
        check: 'null-share-jump',
        severity: 'hold',
        message:
          'column more_info_url is null in 60 % of rows, against 15 % (a field renamed or gone blank upstream?)',
        partition: 'more_info_url',
        before: 0.15,
        after: 0.6,
      },
    ]);
  });

  it('does not compare a watched column an older snapshot lacks', () => {
    const before = profile({ CA: { rows: 100, nulls: {} } });
    const after = profile({ CA: { rows: 100, nulls: { low_income: 100 } } }, ['low_income']);
    expect(anomalyFindings(incentives(before, after))).toEqual([]);
  });

  it('holds a state whose median dollar amount moved a hundredfold (cents for dollars), not by half', () => {
    const amounts = (median: number, values = 40) => ({
      rows: 50,
      measures: { 'dollar amount': { median, values } },
    });
    const before = profile({ CA: amounts(1_000), MA: amounts(750) });
    expect(anomalyFindings(incentives(before, profile({ CA: amounts(100_000), MA: amounts(500) })))).toEqual([
      {
        table: 'incentives',
        check: 'measure-shift',
        severity: 'hold',
        message: 'the median dollar amount moved by more than ×3 in a partition (a unit error upstream?)',
        count: 1,
        examples: ['CA: median 1,000 → 100,000'],
        partition: 'CA',
        before: 1_000,
        after: 100_000,
      },
    ]);
    // Two values are too few to call a median moved.
    expect(
      anomalyFindings(incentives(profile({ CA: amounts(1_000, 2) }), profile({ CA: amounts(100_000, 2) }))),
    ).toEqual([]);
  });

  it('names states the settings select less of as such, a warning, not a hold', () => {
    // REM_STATES RI,MA,CO → RI with every state's health: MA and CO keep only the clusters health needs.
    const change: TableChange = {
      table: 'rem_clusters',
      contract: REM_CLUSTERS.contract,
      before: profile({ RI: 100, MA: 280, CO: 1_280, TX: 508 }),
      after: profile({ RI: 100, MA: 56, CO: 256, TX: 508 }),
      settingsBefore: { REM_STATES: ['RI', 'MA', 'CO'], HEALTH_STATES: 'all' },
      settingsAfter: { REM_STATES: ['RI'], HEALTH_STATES: 'all' },
    };
    expect(anomalyFindings(change)).toEqual([
      {
        table: 'rem_clusters',
        check: 'partition-narrowed',
        severity: 'warning',
        message:
          '2 partitions have fewer rows because the settings select less of them (REM_STATES RI,MA,CO → RI)',
        count: 2,
        examples: ['CO: 1,280 → 256 rows', 'MA: 280 → 56 rows'],
      },
    ]);
    // The same losses with the settings unchanged hold, and so does a state the settings still select whole.
    expect(anomalyFindings({ ...change, settingsAfter: change.settingsBefore }).map((f) => f.check)).toEqual([
      'partition-drop',
      'table-drop',
    ]);
    const riAlsoLost = { ...change, after: profile({ RI: 20, MA: 56, CO: 256, TX: 508 }) };
    expect(anomalyFindings(riAlsoLost)).toContainEqual(
      expect.objectContaining({ check: 'partition-drop', severity: 'hold', examples: ['RI: 100 → 20 rows'] }),
    );
  });

  it('names a state the settings no longer select as such, a warning, not a hold', () => {
    const change: TableChange = {
      table: 'rem_clusters',
      contract: REM_CLUSTERS.contract,
      before: profile({ RI: 100, MA: 280, CO: 1_280 }),
      after: profile({ RI: 100, MA: 280 }),
      settingsBefore: { REM_STATES: ['RI', 'MA', 'CO'], HEALTH_STATES: [] },
      settingsAfter: { REM_STATES: ['RI', 'MA'], HEALTH_STATES: [] },
    };
    expect(anomalyFindings(change)).toEqual([
      {
        table: 'rem_clusters',
        check: 'partition-deselected',
        severity: 'warning',
        message:
          'a partition has no rows because the settings no longer select it (REM_STATES RI,MA,CO → RI,MA)',
        count: 1,
        examples: ['CO: 1,280 → 0 rows'],
        partition: 'CO',
        before: 1_280,
        after: 0,
      },
    ]);
    // The same loss with the settings unchanged is a hold.
    expect(anomalyFindings({ ...change, settingsAfter: change.settingsBefore })).toEqual([
      expect.objectContaining({
        check: 'partition-emptied',
        severity: 'hold',
        examples: ['CO: 1,280 → 0 rows'],
      }),
      expect.objectContaining({ check: 'table-drop', severity: 'hold' }),
    ]);
  });
});
