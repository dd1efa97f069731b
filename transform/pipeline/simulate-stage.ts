import type { ConsumedRecord, EventLog, OutgoingRecord } from '../../ingest/eventlog/event-log.ts';
import type { Logger } from '../../lib/log.ts';
import type { Progress } from '../../lib/progress.ts';
import {
  REM_CLUSTER_RESULT_SCHEMA,
  REM_CLUSTER_RESULT_VERSION,
  REM_RESULTS_TOPIC,
  REM_WORK_UNIT_SCHEMA,
  REM_WORK_UNIT_VERSION,
  REM_WORK_UNITS_TOPIC,
  remClusterResultSchema,
  remWorkUnitSchema,
  type RemClusterResult,
  type RemWorkUnit,
} from '../../schemas/rem-stage.ts';
import type { UnitRunner } from '../../simulate/stage/worker-pool.ts';

/**
 * The simulate stage on the event log. Work units go to one topic and results come back on another, both
 * keyed by cluster. Delivery is at least once: a result is published before its unit's offset is
 * committed, so a run killed mid-stage redoes at most the units in flight, and a result already on the log
 * for a unit's fingerprint is reused instead of recomputed. Gathering keeps one result per cluster.
 * Nothing here holds every cluster's statistics: the stage keeps each result's summary, and the tables
 * read the statistics back from the log one result at a time (gatherResults).
 */

export const SIMULATE_GROUP = 'rem-simulate';
const GATHER_GROUP = 'rem-gather';
const PARTITIONS = 8;
/** Results are published in groups of this many per runner slot (fewer fsyncs, little work redone after a kill). */
const UNITS_PER_SLOT_PER_FLUSH = 4;

export interface SimulateStageOptions {
  log: EventLog;
  units: readonly RemWorkUnit[];
  /** Starts the runner; called only when some unit has no result yet. */
  startRunner(): Promise<UnitRunner>;
  logger: Pick<Logger, 'info' | 'warn'>;
  progress: Progress;
  /** Called after each group of results is durable on the log (the crash tests stop here). */
  afterResults?(): Promise<void> | void;
}

/** A cluster's result without its statistics lines: what the stage keeps of every result. */
export type RemClusterSummary = Omit<RemClusterResult, 'statistics'>;

export interface StageOutcome {
  /** One result summary per unit, by cluster id. */
  results: Map<string, RemClusterSummary>;
  reused: number;
  computed: number;
  /** Surrogate evaluations of the units computed in this run. */
  evaluations: number;
}

export async function runSimulateStage(options: SimulateStageOptions): Promise<StageOutcome> {
  const { log, units, logger } = options;
  await log.ensureTopic(REM_WORK_UNITS_TOPIC, PARTITIONS);
  await log.ensureTopic(REM_RESULTS_TOPIC, PARTITIONS);
  const wanted = new Map(units.map((u) => [u.cluster_id, u.fingerprint]));
  const results = new Map<string, RemClusterSummary>();
  await gatherResults(log, wanted, (result) => void results.set(result.cluster_id, summaryOf(result)));
  const reused = results.size;
  const missing = units.filter((u) => !results.has(u.cluster_id));
  if (missing.length === 0) {
    logger.info({ clusters: units.length }, `simulate: all ${units.length} cluster results are on the log`);
    return { results, reused, computed: 0, evaluations: 0 };
  }
  logger.info(
    { clusters: units.length, reused, missing: missing.length },
    `simulate: ${missing.length} of ${units.length} clusters to compute`,
  );
  const producedAt = new Date().toISOString();
  for (let start = 0; start < missing.length; start += 1000) {
    await log.publish(
      REM_WORK_UNITS_TOPIC,
      missing.slice(start, start + 1000).map((unit) => ({
        key: unit.cluster_id,
        value: {
          schema: REM_WORK_UNIT_SCHEMA,
          version: REM_WORK_UNIT_VERSION,
          key: unit.cluster_id,
          source: 'simulate',
          sourceVersion: unit.fingerprint,
          producedAt,
          payload: unit,
        },
      })),
    );
  }

  const runner = await options.startRunner();
  const task = options.progress.start('simulate clusters', { total: missing.length, unit: 'clusters' });
  let computed = 0;
  let evaluations = 0;
  try {
    await log.drain({
      groupId: SIMULATE_GROUP,
      topics: [REM_WORK_UNITS_TOPIC],
      onBatch: async (records) => {
        // Every unit goes to the runner at once, so no thread waits for a slow neighbour; results are
        // published in groups as they arrive, one group at a time, before the batch's offsets are committed.
        const flushSize = runner.concurrency * UNITS_PER_SLOT_PER_FLUSH;
        const arrived: RemClusterResult[] = [];
        let publishing = Promise.resolve();
        const queuePublish = (): void => {
          publishing = publishing.then(publishArrived);
          publishing.catch(() => undefined); // awaited below; meanwhile a failure is not unhandled
        };
        const publishArrived = async (): Promise<void> => {
          const done = arrived.splice(0);
          if (done.length === 0) return;
          await log.publish(REM_RESULTS_TOPIC, done.map(resultRecord));
          for (const result of done) {
            results.set(result.cluster_id, summaryOf(result));
            evaluations += result.evaluations;
          }
          computed += done.length;
          task.tick(done.length);
          await options.afterResults?.();
        };
        await Promise.all(
          unitsToRun(records, wanted, results).map(async (unit) => {
            arrived.push(await runner.run(unit));
            if (arrived.length >= flushSize) queuePublish();
          }),
        );
        queuePublish();
        await publishing;
      },
    });
  } finally {
    task.done();
    await runner.close();
  }
  const unanswered = units.filter((u) => !results.has(u.cluster_id)).map((u) => u.cluster_id);
  if (unanswered.length > 0)
    throw new Error(
      `simulate: no result for ${unanswered.length} clusters, e.g. ${unanswered.slice(0, 3).join(', ')}`,
    );
  return { results, reused, computed, evaluations };
}

/** Units of a batch still to run: current (same fingerprint as planned), not answered yet, once each. */
function unitsToRun(
  records: readonly ConsumedRecord[],
  wanted: ReadonlyMap<string, string>,
  results: ReadonlyMap<string, RemClusterSummary>,
): RemWorkUnit[] {
  const todo = new Map<string, RemWorkUnit>();
  for (const { key, value } of records) {
    if (value.schema !== REM_WORK_UNIT_SCHEMA || value.version !== REM_WORK_UNIT_VERSION) continue;
    if (results.has(key) || todo.has(key)) continue;
    const unit = remWorkUnitSchema.parse(value.payload);
    if (wanted.get(unit.cluster_id) === unit.fingerprint) todo.set(key, unit);
  }
  return [...todo.values()];
}

export function resultRecord(result: RemClusterResult): OutgoingRecord {
  return {
    key: result.cluster_id,
    value: {
      schema: REM_CLUSTER_RESULT_SCHEMA,
      version: REM_CLUSTER_RESULT_VERSION,
      key: result.cluster_id,
      source: 'simulate',
      sourceVersion: result.fingerprint,
      producedAt: new Date().toISOString(),
      payload: result,
    },
  };
}

function summaryOf(result: RemClusterResult): RemClusterSummary {
  const { statistics, ...summary } = result;
  void statistics;
  return summary;
}

/**
 * Visits every result on the log that answers a wanted (cluster, fingerprint), one per cluster, in log
 * order, one at a time (nothing is kept but the ids seen): results of other inputs, and repeats of one
 * unit (identical, since a unit's result depends only on its inputs), are passed over. Any table built
 * from the results gathers them this way. Returns how many were visited.
 */
export async function gatherResults(
  log: EventLog,
  wanted: ReadonlyMap<string, string>,
  visit: (result: RemClusterResult) => Promise<void> | void,
): Promise<number> {
  const seen = new Set<string>();
  await log.resetGroup(GATHER_GROUP, [REM_RESULTS_TOPIC]);
  await log.drain({
    groupId: GATHER_GROUP,
    topics: [REM_RESULTS_TOPIC],
    onBatch: async (records) => {
      for (const { key, value } of records) {
        if (value.schema !== REM_CLUSTER_RESULT_SCHEMA || value.version !== REM_CLUSTER_RESULT_VERSION)
          continue;
        if (seen.has(key) || wanted.get(key) !== (value.payload as { fingerprint?: unknown }).fingerprint)
          continue;
        // A result that does not parse is not an answer: its unit is run again.
        const parsed = remClusterResultSchema.safeParse(value.payload);
        if (!parsed.success) continue;
        seen.add(key);
        await visit(parsed.data);
      }
    },
  });
  return seen.size;
}
