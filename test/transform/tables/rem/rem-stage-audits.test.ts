import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { clusterStatisticRowSchema, type ClusterStatisticRow } from '../../../../schemas/rem-data.ts';
import { remClusterRowSchema, type RemClusterRow } from '../../../../schemas/rem-stage.ts';
import { columnsOfRow } from '../../../../data-lake/column-types.ts';
import { loadTable } from '../../../../data-lake/table-loader.ts';
import { auditClusters, auditClusterStatistics } from '../../../../transform/tables/rem/rem-stage-audits.ts';

const cluster: RemClusterRow = {
  cluster_id: '44007|fuel_oil|-',
  county_fips: '44007',
  state: 'RI',
  county_name: 'Providence County',
  heating_fuel: 'fuel_oil',
  water_heater_fuel: null,
  supported: true,
  reason: null,
  message: null,
  samples: 400,
  excluded_samples: { baseline: 0, hvac__heat_pump_seer18_hspf10: 12 },
  evaluations: 788,
  seed: '1',
  code_version: 'c0de00000000',
  model_version: 'rem-surrogate-test',
  rates_version: 'aaaaaaaaaaaa',
  factors_version: 'bbbbbbbbbbbb',
  fingerprint: 'c'.repeat(64),
};

const line = (
  scenario: ClusterStatisticRow['scenario'],
  cost_mean: number,
  energy = 100,
): ClusterStatisticRow => ({
  cluster_id: cluster.cluster_id,
  county_fips: '44007',
  state: 'RI',
  heating_fuel: 'fuel_oil',
  water_heater_fuel: null,
  upgrade: 'hvac__heat_pump_seer18_hspf10',
  fuel: 'total',
  scenario,
  energy_unit: 'kWh',
  energy_mean: energy,
  energy_median: energy,
  energy_p20: energy,
  energy_p80: energy,
  emissions_mean: 0,
  emissions_median: 0,
  emissions_p20: 0,
  emissions_p80: 0,
  cost_mean,
  cost_median: cost_mean,
  cost_p20: cost_mean,
  cost_p80: cost_mean,
  num_samples: 388,
  num_excluded_samples: 12,
});
/** Audits statistics lines as the pipeline does: in SQL, over the DuckDB tables of the run. */
async function auditStatistics(rows: ClusterStatisticRow[], clusters: RemClusterRow[]) {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    await loadTable(db, 'rem_clusters', columnsOfRow('rem_clusters', remClusterRowSchema), clusters);
    await loadTable(
      db,
      'rem_cluster_statistics',
      columnsOfRow('rem_cluster_statistics', clusterStatisticRowSchema),
      rows,
    );
    return await auditClusterStatistics({ db });
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

describe('REM stage audits', () => {
  it('pass a cluster whose lines keep the identity of means', async () => {
    expect(auditClusters([cluster])).toEqual([]);
    const rows = [line('baseline', 3100.1234), line('upgrade', 2950.2234, 80), line('delta', -149.9, -20)];
    expect(await auditStatistics(rows, [cluster])).toEqual([]);
  });

  it('block a repeated cluster, an unsupported cluster without reason, and exclusions beyond the samples', () => {
    const unsupported = {
      ...cluster,
      cluster_id: '04013|fuel_oil|-',
      supported: false,
      samples: 0,
      excluded_samples: {},
    };
    const excessive = { ...cluster, cluster_id: '44007|propane|-', excluded_samples: { baseline: 401 } };
    expect(
      auditClusters([cluster, cluster, unsupported, excessive]).map((f) => [f.check, f.examples]),
    ).toEqual([
      ['cluster_once', ['44007|fuel_oil|-']],
      ['supported_has_samples', ['04013|fuel_oil|-']],
      ['excluded_within_samples', ['44007|propane|-']],
    ]);
  });

  it('block broken means, negative baseline energy, wrong counts, repeats and a cluster without lines', async () => {
    const rows = [
      line('baseline', 3100.1234, -5),
      line('upgrade', 2950.2235),
      line('delta', -149.9),
      { ...line('delta', -149.9), num_samples: 400 },
    ];
    const other = { ...cluster, cluster_id: '44007|propane|-' };
    const findings = await auditStatistics(rows, [cluster, other]);
    const line_ = '44007|fuel_oil|- hvac__heat_pump_seer18_hspf10 total';
    // Energy: −5 + 100 ≠ 100; cost: 3,100.1234 − 149.9 = 2,950.2234 ≠ 2,950.2235. The repeated delta line
    // is named once; it also counts 412 homes where its cluster drew 400.
    expect(findings.map((f) => [f.check, f.count, f.examples])).toEqual([
      ['line_once', 1, [`${line_} delta`]],
      ['mean_identity', 2, [`${line_} upgrade energy`, `${line_} upgrade cost`]],
      ['energy_non_negative', 1, [`${line_} baseline`]],
      ['samples_of_cluster', 1, [`${line_} delta`]],
      ['every_supported_cluster', 1, ['44007|propane|-']],
    ]);
    expect(findings.every((f) => f.severity === 'error')).toBe(true);
  });
});
