import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaEventLog } from '../../../ingest/eventlog/kafka-log.ts';
import { createLogger } from '../../../lib/log.ts';
import { createProgress } from '../../../lib/progress.ts';
import type { CountyProfile, EmissionFactor, EnergyRate } from '../../../schemas/rem-data.ts';
import type { RemClusterResult } from '../../../schemas/rem-stage.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gatherResults, runSimulateStage } from '../../../transform/pipeline/simulate-stage.ts';
import { WorkerPool } from '../../../simulate/stage/worker-pool.ts';
import { planWorkUnits } from '../../../simulate/stage/work-units.ts';
import { readModelFiles } from '../../../simulate/surrogate/committed-model.ts';
import { KafkaTestBroker } from '../../support/kafka-broker/kafka-broker.ts';
import { REM_FIXTURE_DIR } from '../../support/rem-stage/rem-lake.ts';

let broker: KafkaTestBroker;
beforeAll(async () => {
  broker = await KafkaTestBroker.start();
});
afterAll(async () => {
  await broker.stop();
  expect(broker.protocolErrors).toEqual([]);
});

describe('the simulate stage with Kafka as the event log (in-process test broker)', () => {
  it('publishes one unit and one result per cluster, then reuses every result on a second run', async () => {
    const fixture = JSON.parse(await readFile(path.join(REM_FIXTURE_DIR, 'rem.json'), 'utf8')) as {
      counties: CountyProfile[];
      rates: Omit<EnergyRate, 'year' | 'publisher' | 'method'>[];
      factors: Omit<EmissionFactor, 'pollutant' | 'year' | 'publisher'>[];
    };
    const rates = fixture.rates.map((r) => ({
      ...r,
      year: 2024,
      publisher: 'test fixture',
      method: 'fixture',
    }));
    const factors = fixture.factors.map((f) => ({
      ...f,
      pollutant: 'co2e' as const,
      year: 2024,
      publisher: 'test fixture',
    }));
    const model = await readModelFiles();
    const units = planWorkUnits(fixture.counties.slice(0, 1), rates, factors, {
      samples: 20,
      model: { version: model.card.model_version, sha256: model.card.onnx.sha256 },
    });
    const logger = createLogger('silent');
    const log = await KafkaEventLog.open({
      brokers: [broker.address],
      clientId: 'rem-stage',
      topicPrefix: 'rem-stage.',
    });
    try {
      const stage = () =>
        runSimulateStage({
          log,
          units,
          startRunner: () => WorkerPool.start(1, model.onnx),
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
});
