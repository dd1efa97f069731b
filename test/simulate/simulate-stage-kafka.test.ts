import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaEventLog } from '../../eventlog/kafka-log.ts';
import { createLogger } from '../../lib/log.ts';
import { createProgress } from '../../lib/progress.ts';
import type { RemClusterResult } from '../../schemas/rem-stage.ts';
import { gatherResults, runSimulateStage } from '../../simulate/simulate-stage.ts';
import { WorkerPool } from '../../simulate/worker-pool.ts';
import { readModelFiles } from '../../model/surrogate/committed-model.ts';
import { kafkaUnavailable } from '../support/engines/engines.ts';
import { startKafkaCluster, type KafkaCluster } from '../support/engines/kafka-cluster.ts';
import { planFixtureUnits } from '../support/rem-stage/rem-lake.ts';

const unavailable = kafkaUnavailable('the simulate stage on Kafka');

describe.skipIf(unavailable !== undefined)(
  'the simulate stage with Kafka as the event log (3 brokers)',
  () => {
    let cluster: KafkaCluster;
    beforeAll(async () => {
      cluster = await startKafkaCluster();
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
    });

    it('publishes one unit and one result per cluster, then reuses every result on a second run', async () => {
      const model = await readModelFiles();
      const units = await planFixtureUnits(model, { counties: 1, samples: 20 });
      const logger = createLogger('silent');
      const log = await KafkaEventLog.open({
        brokers: cluster.brokers,
        clientId: 'rem-stage',
        topicPrefix: 'rem-stage.',
      });
      try {
        const stage = () =>
          runSimulateStage({
            log,
            units,
            startRunner: () => WorkerPool.start(1, model.onnx),
            stallTimeoutMs: 60_000,
            logger,
            progress: createProgress({ logger }),
          });
        const first = await stage();
        expect({ computed: first.computed, reused: first.reused }).toEqual({ computed: 20, reused: 0 });
        const second = await stage();
        expect({ computed: second.computed, reused: second.reused }).toEqual({ computed: 0, reused: 20 });
        const gathered = new Map<string, RemClusterResult>();
        const count = await gatherResults(
          log,
          new Map(units.map((u) => [u.cluster_id, u.fingerprint])),
          (result) => void gathered.set(result.cluster_id, result),
        );
        expect(count).toBe(20);
        expect([...gathered.keys()].sort()).toEqual(units.map((u) => u.cluster_id).sort());
        expect(gathered.get('44007|natural_gas|-')).toMatchObject({ supported: true, samples: 20 });
      } finally {
        await log.close();
      }
    }, 120_000);
  },
);
