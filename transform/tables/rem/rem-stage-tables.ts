import type { ClusterStatisticRow } from '../../../schemas/rem-data.ts';
import { REM_RESULTS_TOPIC, REM_WORK_UNITS_TOPIC, type RemClusterRow } from '../../../schemas/rem-stage.ts';
import {
  REM_CLUSTERS,
  REM_CLUSTER_STATISTICS,
  REM_COUNTIES,
  REM_EMISSION_FACTORS,
  REM_ENERGY_RATES,
  REM_GRID_EMISSION_FACTORS,
} from '../../../data-lake/tables/rem.ts';
import { gatherResults, runSimulateStage } from '../../../simulate/simulate-stage.ts';
import { decodeStatistics } from '../../../simulate/statistics-arrow.ts';
import { defaultWorkerCount, WorkerPool } from '../../../simulate/worker-pool.ts';
import { SIMULATE_CODE, simulateCodeHash } from '../../../simulate/simulate-code.ts';
import { planWorkUnits } from '../../../simulate/work-units.ts';
import { readModelFiles } from '../../../model/surrogate/committed-model.ts';
import type { AnyLakeTable, ChunkedLakeTable, LakeTable } from '../lake-table.ts';
import { auditClusters, auditClusterStatistics, statisticsLineOrder } from './rem-stage-audits.ts';

export interface RemStageTableOptions {
  /** Called after each group of results is on the log (the crash test stops a run there). */
  afterResults?: () => Promise<void> | void;
  /** The simulate code's hash (default: this checkout's, simulateCodeHash); specs stand in other code. */
  simulateCode?: () => string;
}

/**
 * The simulate stage's two tables. Building `rem_clusters` runs the stage through the event log (work
 * units out, results back, only the units whose inputs changed); `rem_cluster_statistics` gathers the
 * statistics of those same results from the log.
 */
export function remStageTables(options: RemStageTableOptions = {}): AnyLakeTable[] {
  const clusters: LakeTable<RemClusterRow, 'REM_STATES' | 'HEALTH_STATES' | 'REM_SAMPLES'> = {
    ...REM_CLUSTERS,
    schemaVersion: 2,
    code: [import.meta.url, ...SIMULATE_CODE],
    settings: ['REM_STATES', 'HEALTH_STATES', 'REM_SAMPLES'],
    description:
      'REM clusters (county × heating fuel × water-heater fuel): supported or why not, sample homes, homes ' +
      'excluded per upgrade, seed, and the simulate code, model, rates and factors versions of their statistics',
    inputs: {
      tables: [REM_COUNTIES, REM_ENERGY_RATES, REM_EMISSION_FACTORS, REM_GRID_EMISSION_FACTORS],
      topics: [REM_WORK_UNITS_TOPIC, REM_RESULTS_TOPIC],
    },
    async build(ctx) {
      // Every cluster of the REM_STATES counties; of the HEALTH_STATES counties, the clusters with a drawn
      // water-heater fuel, which the health rollup reads.
      const selects = (states: 'all' | string[], state: string) => states === 'all' || states.includes(state);
      const { REM_STATES, HEALTH_STATES, REM_SAMPLES } = ctx.settings;
      const counties = (await ctx.table(REM_COUNTIES)).filter(
        (county) => selects(REM_STATES, county.state) || selects(HEALTH_STATES, county.state),
      );
      const rates = await ctx.table(REM_ENERGY_RATES);
      const factors = await ctx.table(REM_EMISSION_FACTORS);
      const gridFactors = await ctx.table(REM_GRID_EMISSION_FACTORS);
      const model = await readModelFiles();
      const units = planWorkUnits(counties, rates, factors, gridFactors, {
        samples: REM_SAMPLES,
        model: { version: model.card.model_version, sha256: model.card.onnx.sha256 },
        code: (options.simulateCode ?? simulateCodeHash)(),
        include: (county, cluster) => selects(REM_STATES, county.state) || cluster.water_heater_fuel === null,
      });
      const outcome = await runSimulateStage({
        log: await ctx.eventLog(),
        units,
        startRunner: () => WorkerPool.start(defaultWorkerCount(ctx.runtime.SIMULATE_WORKERS), model.onnx),
        stallTimeoutMs: ctx.runtime.SIMULATE_STALL_TIMEOUT_MS,
        logger: ctx.logger,
        progress: ctx.progress,
        ...(options.afterResults ? { afterResults: options.afterResults } : {}),
      });
      return units
        .map((unit): RemClusterRow => {
          const result = outcome.results.get(unit.cluster_id)!;
          return {
            cluster_id: unit.cluster_id,
            county_fips: unit.county.county_fips,
            state: unit.county.state,
            county_name: unit.county.name,
            heating_fuel: unit.cluster.heating_fuel,
            water_heater_fuel: unit.cluster.water_heater_fuel,
            supported: result.supported,
            reason: result.reason,
            message: result.message,
            samples: result.samples,
            excluded_samples: result.excluded,
            evaluations: result.evaluations,
            seed: unit.seed,
            code_version: unit.versions.code,
            model_version: unit.versions.model,
            rates_version: unit.versions.rates,
            factors_version: unit.versions.factors,
            fingerprint: unit.fingerprint,
          };
        })
        .sort((a, b) => compare(a.cluster_id, b.cluster_id));
    },
    audit: auditClusters,
  };

  const statistics: ChunkedLakeTable<ClusterStatisticRow, 'REM_STATES' | 'HEALTH_STATES'> = {
    ...REM_CLUSTER_STATISTICS,
    schemaVersion: 1,
    code: [import.meta.url],
    description:
      'REM statistics per supported cluster, upgrade, fuel (and total) and scenario (baseline, upgrade, ' +
      'delta): mean, median, p20 and p80 of annual energy (energy_unit), emissions (kgCO2e) and cost ($)',
    inputs: { tables: [REM_CLUSTERS], topics: [REM_RESULTS_TOPIC] },
    // Its states are those the settings select (through rem_clusters): declared so that its audit tells a
    // state the settings select less of from one that lost rows.
    settings: ['REM_STATES', 'HEALTH_STATES'],
    chunked: true,
    // Nationally ~5M lines: written one cluster at a time as the results are read back from the log.
    async build(ctx, write) {
      const supported = (await ctx.table(REM_CLUSTERS)).filter((c) => c.supported);
      const byId = new Map(supported.map((c) => [c.cluster_id, c]));
      const task = ctx.progress.start('gather statistics', { total: supported.length, unit: 'clusters' });
      const gathered = await gatherResults(
        await ctx.eventLog(),
        new Map(supported.map((c) => [c.cluster_id, c.fingerprint])),
        async (result) => {
          const cluster = byId.get(result.cluster_id)!;
          if (!result.statistics)
            throw new Error(`no statistics on the log for cluster ${cluster.cluster_id}`);
          await write(
            decodeStatistics(
              {
                cluster_id: cluster.cluster_id,
                county_fips: cluster.county_fips,
                state: cluster.state,
                heating_fuel: cluster.heating_fuel,
                water_heater_fuel: cluster.water_heater_fuel,
              },
              Buffer.from(result.statistics, 'base64'),
            ),
          );
          task.tick();
        },
      );
      task.done();
      if (gathered !== supported.length)
        throw new Error(`statistics of ${supported.length - gathered} supported clusters are not on the log`);
    },
    // Cluster by cluster, each cluster's lines in the order the simulator writes them.
    orderBy: statisticsLineOrder,
    audit: auditClusterStatistics,
  };
  return [clusters, statistics] as AnyLakeTable[];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
