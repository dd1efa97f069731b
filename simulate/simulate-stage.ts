import type { ConsumedRecord, EventLog, OutgoingRecord } from '../eventlog/event-log.ts';
import type { Logger } from '../lib/log.ts';
import type { Progress } from '../lib/progress.ts';
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
  type RemInputVersions,
  type RemWorkUnit,
} from '../schemas/rem-stage.ts';
import type { UnitRunner } from './worker-pool.ts';

/**
 * The simulate stage on the event log. Work units go to one topic and results come back on another, both
 * keyed by cluster. The units topic is consumed by one group: the pipeline's own worker threads and, with
 * Kafka, any `npm run simulate:worker` process, wherever it runs. Delivery is at least once: a result is
 * published before its unit's offset is committed, so a member killed mid-stage leaves at most its
 * uncommitted units, which the group hands to another member (or the next run), and a result already on the
 * log for a unit's fingerprint is reused instead of recomputed. The pipeline follows the results topic until
 * every cluster it wants is answered, by whoever computed it; gathering keeps one result per cluster.
 * Nothing here holds every cluster's statistics: the stage keeps each result's summary, and the tables
 * read the statistics back from the log one result at a time (gatherResults).
 */

export const SIMULATE_GROUP = 'rem-simulate';
const GATHER_GROUP = 'rem-gather';
const PARTITIONS = 8;
/** Results are published in groups of this many per runner slot (fewer fsyncs, little work redone after a kill). */
const UNITS_PER_SLOT_PER_FLUSH = 4;
/**
 * Units handed to a member at once, per runner slot: enough that threads seldom wait for a slow neighbour at
 * a batch's end, few enough that a stopping worker finishes its batch in about a second at N = 400.
 */
const UNITS_PER_SLOT_PER_BATCH = 32;

export interface SimulateStageOptions {
  log: EventLog;
  units: readonly RemWorkUnit[];
  /** Starts the runner; called only when some unit has no result yet. */
  startRunner(): Promise<UnitRunner>;
  logger: Pick<Logger, 'info' | 'warn'>;
  progress: Progress;
  /** Called after each group of results is durable on the log (the crash tests stop here). */
  afterResults?(): Promise<void> | void;
  /**
   * Fails the stage when no new result arrives for this long (ms) while clusters are still unanswered, naming
   * them: a worker elsewhere that takes units but cannot answer them (other code) would otherwise stall the
   * run for ever. Results already on the log stay there for the next run.
   */
  stallTimeoutMs: number;
}

/** A cluster's result without its statistics lines: what the stage keeps of every result. */
export type RemClusterSummary = Omit<RemClusterResult, 'statistics'>;

export interface StageOutcome {
  /** One result summary per unit, by cluster id. */
  results: Map<string, RemClusterSummary>;
  reused: number;
  /** Units computed by this process's runner (the others' results were gathered from the log). */
  computed: number;
  /** Surrogate evaluations of the units computed in this run. */
  evaluations: number;
}

export async function runSimulateStage(options: SimulateStageOptions): Promise<StageOutcome> {
  const { log, units, logger } = options;
  await ensureStageTopics(log);
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
      missing.slice(start, start + 1000).map((unit) => workUnitRecord(unit, producedAt)),
    );
  }

  const runner = await options.startRunner();
  const task = options.progress.start('simulate clusters', { total: missing.length, unit: 'clusters' });
  let computed = 0;
  let evaluations = 0;
  // Ends both memberships: once every wanted cluster is answered, or when either fails.
  const finished = new AbortController();
  let lastAnswerAt = Date.now();
  const answer = (result: RemClusterResult): void => {
    if (results.has(result.cluster_id) || wanted.get(result.cluster_id) !== result.fingerprint) return;
    results.set(result.cluster_id, summaryOf(result));
    lastAnswerAt = Date.now();
    task.tick(1);
    if (results.size === wanted.size) finished.abort();
  };
  const member = (work: Promise<unknown>) =>
    work.catch((error: unknown) => {
      finished.abort();
      throw error;
    });
  try {
    const settled = await Promise.allSettled([
      member(
        consumeWorkUnits({
          log,
          runner,
          signal: finished.signal,
          otherUnitVersions: 'skip',
          shouldRun: (unit) =>
            wanted.get(unit.cluster_id) === unit.fingerprint && !results.has(unit.cluster_id),
          onResults: async (done) => {
            for (const result of done) {
              evaluations += result.evaluations;
              answer(result);
            }
            computed += done.length;
            await options.afterResults?.();
          },
        }),
      ),
      member(followResults(log, wanted, results, finished.signal, answer)),
      member(
        failWhenStalled(
          finished.signal,
          options.stallTimeoutMs,
          () => lastAnswerAt,
          () => units.filter((u) => !results.has(u.cluster_id)).map((u) => u.cluster_id),
        ),
      ),
    ]);
    for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  } finally {
    task.done();
    await runner.close();
  }
  return { results, reused, computed, evaluations };
}

/** Resolves when `signal` aborts; rejects, naming the unanswered clusters, once no answer came for `timeoutMs`. */
async function failWhenStalled(
  signal: AbortSignal,
  timeoutMs: number,
  lastAnswerAt: () => number,
  unanswered: () => string[],
): Promise<void> {
  const pollMs = Math.min(1000, timeoutMs);
  while (!signal.aborted) {
    // Each wait removes its abort listener when it ends (one left behind per poll piled up on a long run).
    await new Promise<void>((resolve) => {
      const stop = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        resolve();
      };
      const timer = setTimeout(stop, pollMs);
      signal.addEventListener('abort', stop, { once: true });
    });
    if (!signal.aborted && Date.now() - lastAnswerAt() > timeoutMs) {
      const missing = unanswered();
      throw new Error(
        `simulate: no new result for ${timeoutMs / 1000} s with ${missing.length} clusters unanswered ` +
          `(e.g. ${missing.slice(0, 3).join(', ')}); is a simulate worker running other code? ` +
          'The results on the log are kept for the next run',
      );
    }
  }
}

export interface SimulateWorkerOptions {
  log: EventLog;
  runner: UnitRunner;
  /** Aborting it stops the worker after the units in hand are answered and committed. */
  signal: AbortSignal;
  /** The simulate code and model this process runs: a unit asking for others stops it (an older or newer deployment). */
  versions: Pick<RemInputVersions, 'code' | 'model'>;
  logger: Pick<Logger, 'info'>;
  /** Counts the clusters computed (the worker's metrics). */
  metrics?: { unitsComputed(count: number): void };
}

/**
 * A simulate worker outside the pipeline (`npm run simulate:worker`, Kafka): a member of the units' group
 * until `signal` aborts, answering every unit it is handed; resolves to the number of units it computed.
 */
export async function runSimulateWorker(options: SimulateWorkerOptions): Promise<number> {
  const { log, runner, signal, versions, logger } = options;
  await ensureStageTopics(log);
  // A unit redelivered after a rebalance (or published twice) is computed here once.
  const answered = new Set<string>();
  let computed = 0;
  await consumeWorkUnits({
    log,
    runner,
    signal,
    otherUnitVersions: 'fail',
    shouldRun: (unit) => {
      if (unit.versions.code !== versions.code || unit.versions.model !== versions.model) {
        throw new Error(
          `simulate worker: unit ${unit.cluster_id} wants simulate code ${unit.versions.code} and model ` +
            `${unit.versions.model}, this worker runs simulate code ${versions.code} and model ${versions.model}: ` +
            'run the worker from the same version of the code as the pipeline',
        );
      }
      return !answered.has(`${unit.cluster_id}|${unit.fingerprint}`);
    },
    onResults: (done) => {
      for (const result of done) answered.add(`${result.cluster_id}|${result.fingerprint}`);
      computed += done.length;
      options.metrics?.unitsComputed(done.length);
      logger.info({ published: done.length, computed }, `simulate worker: ${computed} units computed`);
    },
  });
  return computed;
}

/** Both topics, with the stage's partition count, whoever (pipeline or worker) comes first. */
async function ensureStageTopics(log: EventLog): Promise<void> {
  await log.ensureTopic(REM_WORK_UNITS_TOPIC, PARTITIONS);
  await log.ensureTopic(REM_RESULTS_TOPIC, PARTITIONS);
}

interface UnitConsumerOptions {
  log: EventLog;
  runner: UnitRunner;
  signal: AbortSignal;
  /** Whether a unit handed to this member is to be run here (current, and not answered yet). */
  shouldRun(unit: RemWorkUnit): boolean;
  /**
   * A worker process must not commit a unit it cannot read (a newer pipeline's): it stops instead, and the
   * unit goes to another member. The pipeline passes over older units, which no run wants any more.
   */
  otherUnitVersions: 'skip' | 'fail';
  /** Called with each group of results once it is durable on the log, before the units are committed. */
  onResults(results: RemClusterResult[]): Promise<void> | void;
}

/** Membership of the units' group: runs the units it is handed and publishes their results. */
async function consumeWorkUnits(options: UnitConsumerOptions): Promise<void> {
  const { log, runner } = options;
  await log.consume({
    groupId: SIMULATE_GROUP,
    topics: [REM_WORK_UNITS_TOPIC],
    signal: options.signal,
    maxBatchRecords: runner.concurrency * UNITS_PER_SLOT_PER_BATCH,
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
        await options.onResults(done);
      };
      await Promise.all(
        unitsToRun(records, options).map(async (unit) => {
          arrived.push(await runner.run(unit));
          if (arrived.length >= flushSize) queuePublish();
        }),
      );
      queuePublish();
      await publishing;
    },
  });
}

/** Units of a batch to run: work units of this version that `shouldRun` accepts, once each. */
function unitsToRun(
  records: readonly ConsumedRecord[],
  { shouldRun, otherUnitVersions }: Pick<UnitConsumerOptions, 'shouldRun' | 'otherUnitVersions'>,
): RemWorkUnit[] {
  const todo = new Map<string, RemWorkUnit>();
  for (const { key, value } of records) {
    if (value.schema !== REM_WORK_UNIT_SCHEMA) continue;
    if (value.version !== REM_WORK_UNIT_VERSION) {
      if (otherUnitVersions === 'skip') continue;
      throw new Error(
        `simulate worker: unit ${key} is ${REM_WORK_UNIT_SCHEMA} v${value.version}, this worker reads ` +
          `v${REM_WORK_UNIT_VERSION}: run the worker from the same version of the code as the pipeline`,
      );
    }
    if (todo.has(key)) continue;
    const unit = remWorkUnitSchema.parse(value.payload);
    if (shouldRun(unit)) todo.set(key, unit);
  }
  return [...todo.values()];
}

/**
 * Follows the results topic in the gather group (after `gatherResults` has read it to its end), passing
 * every result that parses to `answer`, until `signal` aborts.
 */
async function followResults(
  log: EventLog,
  wanted: ReadonlyMap<string, string>,
  answered: ReadonlyMap<string, RemClusterSummary>,
  signal: AbortSignal,
  answer: (result: RemClusterResult) => void,
): Promise<void> {
  await log.consume({
    groupId: GATHER_GROUP,
    topics: [REM_RESULTS_TOPIC],
    signal,
    onBatch: async (records) => {
      for (const result of wantedResults(records, wanted, answered)) answer(result);
    },
  });
}

export function workUnitRecord(unit: RemWorkUnit, producedAt: string): OutgoingRecord {
  return {
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
  };
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
 * order, a batch at a time (nothing is kept but the ids seen). Any table built from the results gathers
 * them this way. Returns how many were visited.
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
      for (const result of wantedResults(records, wanted, seen)) {
        seen.add(result.cluster_id);
        await visit(result);
      }
    },
  });
  return seen.size;
}

/**
 * The results among `records` that answer a wanted (cluster, fingerprint) not in `answered` yet, the first of
 * each cluster: results of other inputs, and repeats of one unit (identical, since a unit's result depends
 * only on its inputs), are passed over, and so is a result that does not parse.
 */
function wantedResults(
  records: readonly ConsumedRecord[],
  wanted: ReadonlyMap<string, string>,
  answered: { has(clusterId: string): boolean },
): RemClusterResult[] {
  const answers = new Map<string, RemClusterResult>();
  for (const { key, value } of records) {
    if (value.schema !== REM_CLUSTER_RESULT_SCHEMA || value.version !== REM_CLUSTER_RESULT_VERSION) continue;
    if (answered.has(key) || answers.has(key)) continue;
    if (wanted.get(key) !== (value.payload as { fingerprint?: unknown }).fingerprint) continue;
    // A result that does not parse is not an answer: its unit is run again.
    const parsed = remClusterResultSchema.safeParse(value.payload);
    if (parsed.success) answers.set(key, parsed.data);
  }
  return [...answers.values()];
}
