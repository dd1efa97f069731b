import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KafkaEventLog } from '../../../eventlog/kafka-log.ts';
import { createLogger } from '../../../lib/log.ts';
import { createProgress } from '../../../lib/progress.ts';
import { REM_RESULTS_TOPIC, REM_WORK_UNITS_TOPIC } from '../../../schemas/rem-stage.ts';
import { WorkerPool } from '../../../simulate/worker-pool.ts';
import { readModelFiles, type ModelFiles } from '../../../model/surrogate/committed-model.ts';
import {
  gatherResults,
  runSimulateStage,
  SIMULATE_GROUP,
  workUnitRecord,
} from '../../../simulate/simulate-stage.ts';
import { kafkaUnavailable } from '../../support/engines/engines.ts';
import { startKafkaCluster, type KafkaCluster } from '../../support/engines/kafka-cluster.ts';
import { promtoolCheckMetrics, promtoolUnavailable } from '../../support/promtool.ts';
import { sampleValue, samplesOf } from '../../support/prometheus-text.ts';
import { planFixtureUnits } from '../../support/rem-stage/rem-lake.ts';
import { startWorker as startSimulateWorker } from '../../support/simulate-worker-process.ts';

const unavailable = kafkaUnavailable('npm run simulate:worker on Kafka');
let cluster: KafkaCluster;
let model: ModelFiles;
const children: ChildProcessWithoutNullStreams[] = [];
beforeAll(async () => {
  model = await readModelFiles();
  if (unavailable === undefined) cluster = await startKafkaCluster();
}, 120_000);
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await cluster?.stop();
});

const startWorker = (env: Record<string, string>) => startSimulateWorker(env, children);

const kafkaLog = (topicPrefix: string) =>
  KafkaEventLog.open({ brokers: cluster.brokers, clientId: 'simulate-worker-test', topicPrefix });

describe.skipIf(unavailable !== undefined)('npm run simulate:worker with Kafka (3 brokers)', () => {
  it('a worker killed with SIGKILL mid-run loses nothing: the pipeline finishes and gathers each cluster once', async () => {
    const topicPrefix = 'worker-kill.';
    const units = await planFixtureUnits(model, { counties: 2, samples: 20 });
    const worker = startWorker({ KAFKA_BROKERS: cluster.bootstrap, KAFKA_TOPIC_PREFIX: topicPrefix });
    await worker.logged(/joining the simulate group/);
    const logger = createLogger('silent');
    const log = await kafkaLog(topicPrefix);
    try {
      const outcome = await runSimulateStage({
        log,
        units,
        // The pipeline's own threads join only once the worker, alone in the group, has published its first
        // results and been killed with units still in hand: the group must hand them on.
        startRunner: async () => {
          await worker.logged(/units computed/);
          worker.child.kill('SIGKILL');
          expect(await worker.exited).toBeNull();
          return WorkerPool.start(1, model.onnx);
        },
        stallTimeoutMs: 60_000,
        logger,
        progress: createProgress({ logger }),
      });

      const byWorker = units.length - outcome.computed;
      expect(byWorker).toBeGreaterThan(0); // at least its first group of results
      expect(byWorker).toBeLessThan(units.length);
      expect([...outcome.results.keys()].sort()).toEqual(units.map((u) => u.cluster_id).sort());
      for (const unit of units)
        expect(outcome.results.get(unit.cluster_id)?.fingerprint).toBe(unit.fingerprint);
      // Every cluster's result is on the log (some maybe twice: units redone after the kill); gathering
      // keeps one per cluster.
      const keys: string[] = [];
      await log.drain({
        groupId: 'test-results-reader',
        topics: [REM_RESULTS_TOPIC],
        onBatch: async (records) => void keys.push(...records.map((r) => r.key)),
      });
      expect(new Set(keys).size).toBe(units.length);
      expect(keys.length).toBeGreaterThanOrEqual(units.length);
      const gathered = await gatherResults(
        log,
        new Map(units.map((u) => [u.cluster_id, u.fingerprint])),
        () => undefined,
      );
      expect(gathered).toBe(units.length);
    } finally {
      await log.close();
    }
  }, 120_000);

  it('serves its metrics on METRICS_PORT while it runs: clusters computed, the group’s lag, threads', async () => {
    const topicPrefix = 'worker-metrics.';
    const units = await planFixtureUnits(model, { counties: 1, samples: 20 });
    const log = await kafkaLog(topicPrefix);
    try {
      // Units waiting before the worker starts (on the 8 partitions the stage gives the topic): the group's
      // lag is all of them until it commits.
      await log.ensureTopic(REM_WORK_UNITS_TOPIC, 8);
      await log.publish(
        REM_WORK_UNITS_TOPIC,
        units.map((unit) => workUnitRecord(unit, '2026-11-23T12:00:00.000Z')),
      );
      const worker = startWorker({
        KAFKA_BROKERS: cluster.bootstrap,
        KAFKA_TOPIC_PREFIX: topicPrefix,
        METRICS_PORT: '0',
      });
      await worker.logged(/^simulate worker: metrics on /);
      const url = worker.lines
        .find((line) => line.startsWith('simulate worker: metrics on '))!
        .split(' ')
        .at(-1)!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const scrape = async () => (await fetch(url)).text();
      const lagOf = (text: string) =>
        samplesOf(text, 'electrify_simulate_consumer_lag', { topic: REM_WORK_UNITS_TOPIC }).reduce(
          (sum, s) => sum + s.value,
          0,
        );

      const waiting = await scrape();
      expect(lagOf(waiting)).toBe(units.length);
      expect(sampleValue(waiting, 'electrify_simulate_clusters_computed_total')).toBe(0);
      expect(sampleValue(waiting, 'electrify_simulate_worker_threads')).toBe(1);
      if (promtoolUnavailable === undefined)
        expect(await promtoolCheckMetrics(waiting)).toEqual({ code: 0, output: '' });

      await vi.waitFor(
        async () => {
          const text = await scrape();
          expect(sampleValue(text, 'electrify_simulate_clusters_computed_total')).toBe(units.length);
          expect(lagOf(text)).toBe(0);
        },
        { timeout: 60_000, interval: 250 },
      );
      const done = await scrape();
      expect(
        samplesOf(done, 'electrify_simulate_consumer_lag')
          .map((s) => s.labels.partition)
          .sort(),
      ).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
      if (promtoolUnavailable === undefined)
        expect(await promtoolCheckMetrics(done)).toEqual({ code: 0, output: '' });
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    } finally {
      await log.close();
    }
  }, 120_000);

  it('stops cleanly on SIGTERM: it leaves the group and exits 0', async () => {
    const worker = startWorker({ KAFKA_BROKERS: cluster.bootstrap, KAFKA_TOPIC_PREFIX: 'worker-term.' });
    await worker.logged(/joining the simulate group/);
    worker.child.kill('SIGTERM');

    expect(await worker.exited).toBe(0);
    expect(worker.lines.slice(-2)).toEqual([
      'simulate worker: stopping after the units in hand',
      'simulate worker: stopped',
    ]);
  }, 60_000);

  it('stops on a unit for another model version, leaving it uncommitted for another member', async () => {
    const topicPrefix = 'worker-skew.';
    const [unit] = await planFixtureUnits(model, { counties: 1, samples: 20 });
    const foreign = { ...unit!, versions: { ...unit!.versions, model: 'rem-surrogate-v99' } };
    const log = await kafkaLog(topicPrefix);
    try {
      const worker = startWorker({ KAFKA_BROKERS: cluster.bootstrap, KAFKA_TOPIC_PREFIX: topicPrefix });
      await worker.logged(/joining the simulate group/);
      await log.publish(REM_WORK_UNITS_TOPIC, [workUnitRecord(foreign, '2026-11-23T12:00:00.000Z')]);

      expect(await worker.exited).toBe(1);
      expect(worker.stderr()).toContain(
        `simulate worker: unit 44007|electricity|- wants simulate code ${unit!.versions.code} and model ` +
          `rem-surrogate-v99, this worker runs simulate code ${unit!.versions.code} and model ` +
          `${model.card.model_version}: run the worker from the same version of the code as the pipeline`,
      );
      const waiting: string[] = [];
      await log.drain({
        groupId: SIMULATE_GROUP,
        topics: [REM_WORK_UNITS_TOPIC],
        onBatch: async (records) => void waiting.push(...records.map((r) => r.key)),
      });
      expect(waiting).toEqual([unit!.cluster_id]);
    } finally {
      await log.close();
    }
  }, 60_000);
});

describe('npm run simulate:worker without Kafka', () => {
  it('refuses to start with the embedded event log, saying why', async () => {
    const worker = startWorker({ KAFKA_BROKERS: '' });

    expect(await worker.exited).toBe(2);
    expect(worker.stderr()).toContain('simulate:worker needs Kafka: set KAFKA_BROKERS');
  }, 60_000);
});
