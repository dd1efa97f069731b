import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { EmbeddedEventLog } from '../../eventlog/embedded-log.ts';
import { KafkaEventLog } from '../../eventlog/kafka-log.ts';
import { openEventLog } from '../../eventlog/open-event-log.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import { kafkaUnavailable } from '../support/engines/engines.ts';
import { startKafkaCluster, type KafkaCluster } from '../support/engines/kafka-cluster.ts';
import { programRecord } from './envelopes.ts';

const logger = createLogger('silent');
let lakeDir: string;
it.beforeAll(async ({ fileTempDir }) => {
  lakeDir = fileTempDir;
});
const unavailable = kafkaUnavailable('openEventLog on Kafka');

describe('openEventLog', () => {
  it('opens the embedded log in <LAKE_DIR>/log when no Kafka brokers are configured', async () => {
    const log = await openEventLog(loadConfig({ LAKE_DIR: lakeDir, KAFKA_BROKERS: '' }), logger);
    try {
      expect(log).toBeInstanceOf(EmbeddedEventLog);
      expect(
        JSON.parse(await readFile(path.join(lakeDir, 'log', 'LOCK', 'holder.json'), 'utf8')),
      ).toMatchObject({
        pid: process.pid,
      });
    } finally {
      await log.close();
    }
  });

  it.skipIf(unavailable !== undefined)(
    'opens Kafka with the configured topic prefix when KAFKA_BROKERS is set',
    async () => {
      // One node is enough to see where the records go.
      const cluster: KafkaCluster = await startKafkaCluster({ nodes: 1 });
      const config = loadConfig({
        LAKE_DIR: lakeDir,
        KAFKA_BROKERS: cluster.bootstrap,
        KAFKA_TOPIC_PREFIX: 'staging.',
      });
      const log = await openEventLog(config, logger);
      try {
        expect(log).toBeInstanceOf(KafkaEventLog);
        await log.publish('programs', [programRecord('program-1', 0)]);
        const plain = await KafkaEventLog.open({
          brokers: cluster.brokers,
          clientId: 'check',
          topicPrefix: '',
        });
        const topics: string[] = [];
        await plain.drain({
          groupId: 'prefix-check',
          topics: ['staging.programs', 'programs'],
          onBatch: async (batch) => void topics.push(...batch.map((r) => r.topic)),
        });
        await plain.close();
        expect(topics).toEqual(['staging.programs']);
      } finally {
        await log.close();
        await cluster.stop();
      }
    },
    120_000,
  );
});
