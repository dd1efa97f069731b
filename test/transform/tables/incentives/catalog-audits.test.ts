import { describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../../../ingest/source.ts';
import { buildIncentiveTablesInProcess } from '../../../support/incentives/in-process-lake.ts';
import { fixtureRecords } from '../../../support/incentives/fixture-records.ts';

/** The fixture with some records changed (matched by schema and key). */
function withChanges(
  changes: Record<string, (payload: Record<string, unknown>) => unknown>,
  extra: SourceRecord[] = [],
): SourceRecord[] {
  return [
    ...fixtureRecords().map((r) => {
      const change = changes[`${r.schema} ${r.key}`];
      return change ? { ...r, payload: change(r.payload as Record<string, unknown>) } : r;
    }),
    ...extra,
  ];
}

const audit = async (records: SourceRecord[]) => (await buildIncentiveTablesInProcess(records)).audit;

describe('incentive catalog audits', () => {
  it('finds nothing wrong with consistent data', async () => {
    expect(await audit(fixtureRecords())).toEqual([]);
  });

  it('blocks publishing on dangling program, authority, threshold and geo-group references', async () => {
    const findings = await audit(
      withChanges({
        'incentives.incentive RI/RI-4': (p) => ({ ...p, program: 'ri_missing' }),
        'incentives.program RI/ri_drive': (p) => ({ ...p, authority: 'ri-nobody' }),
        'incentives.incentive RI/RI-1': (p) => ({
          ...p,
          low_income: 'ri-missing-limit',
          eligible_geo_group: 'ri-nowhere',
        }),
      }),
    );
    expect(findings.map((f) => [f.check, f.severity, f.examples])).toEqual([
      ['incentive-program-exists', 'error', ['RI/RI-4']],
      ['program-authority-exists', 'error', ['RI/ri_drive']],
      ['low-income-threshold-exists', 'error', ['RI/RI-1']],
      ['geo-group-exists', 'error', ['RI/RI-1']],
    ]);
  });

  it('blocks publishing on repeated ids, uncovered household sizes, unknown relationship ids and cycles', async () => {
    const records = withChanges(
      {
        'incentives.relationships RI': (p) => ({
          ...p,
          exclusions: { 'RI-1': ['RI-2'], 'RI-2': ['RI-1', 'RI-99'] },
        }),
        'incentives.incentive RI/RI-4': (p) => ({ ...p, id: 'RI-3' }),
      },
      [
        {
          schema: 'incentives.low-income-threshold',
          key: 'ri-short',
          payload: {
            id: 'ri-short',
            type: 'hhsize',
            source_url: 'https://example.org',
            thresholds: { '1': 30000, '2': 40000 },
          },
        },
      ],
    );
    const findings = await audit(records);
    expect(findings.map((f) => [f.check, f.severity, f.examples])).toEqual([
      ['unique-incentive-ids', 'error', ['RI/RI-3']],
      ['hhsize-thresholds-cover-1-8', 'error', ['ri-short']],
      ['relationship-ids-exist', 'error', ['RI/RI-99']],
      ['relationships-acyclic', 'error', ['RI: RI-1 -> RI-2']],
    ]);
  });

  it('only warns about amount rules and long descriptions, which do not change answers', async () => {
    const findings = await audit(
      withChanges({
        'incentives.incentive RI/RI-4': (p) => ({
          ...p,
          amount: { type: 'dollar_amount', number: 1000, maximum: 500 },
        }),
        'incentives.incentive RI/RI-2': (p) => ({ ...p, short_description: { en: 'x'.repeat(151) } }),
      }),
    );
    expect(findings.map((f) => [f.check, f.severity, f.examples])).toEqual([
      ['amount-rules', 'warning', ['RI/RI-4: maximum below number']],
      ['short-description-length', 'warning', ['RI/RI-2']],
    ]);
  });

  it('warns of a custom area whose GeoJSON cannot be read, instead of dropping it silently', async () => {
    const geography = (id: number, geometry: string) => ({
      schema: 'incentives.geography',
      key: String(id),
      payload: {
        id,
        key: null,
        type: 'custom',
        name: `Area ${id}`,
        state: 'RI',
        county_fips: null,
        geometry,
      },
    });
    const square = '{"type":"Polygon","coordinates":[[[-71.5,41.8],[-71.4,41.8],[-71.4,41.9],[-71.5,41.8]]]}';
    const findings = await audit([
      ...fixtureRecords(),
      geography(9001, square),
      geography(9002, '{"type":"Polygon","coordinates":'),
      geography(9003, '{"type":"Point","coordinates":[-71.5,41.8]}'),
    ]);
    expect(findings.map((f) => [f.check, f.severity, f.examples])).toEqual([
      ['custom-area-geometry', 'warning', ['RI/9002', 'RI/9003']],
    ]);
  });
});
