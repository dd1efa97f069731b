import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedEventLog } from '../../../lib/eventlog/embedded-log.ts';
import { KafkaEventLog } from '../../../lib/eventlog/kafka-log.ts';
import { openEventLog } from '../../../lib/eventlog/open-event-log.ts';
import { loadConfig } from '../../../lib/config.ts';
import { createLogger } from '../../../lib/log.ts';
import { KafkaTestBroker } from '../../support/kafka-broker/kafka-broker.ts';
import { programRecord } from './envelopes.ts';

const logger = createLogger('silent');
let lakeDir: string;
let broker: KafkaTestBroker;
beforeAll(async () => {
  lakeDir = await mkdtemp(path.join(tmpdir(), 'open-event-log-'));
  broker = await KafkaTestBroker.start();
});
afterAll(async () => {
  await broker.stop();
  await rm(lakeDir, { recursive: true, force: true });
});

describe('openEventLog', () => {
  it('opens the embedded log in <LAKE_DIR>/log when no Kafka brokers are configured', async () => {
    const log = await openEventLog(loadConfig({ LAKE_DIR: lakeDir, KAFKA_BROKERS: '' }), logger);
    try {
      expect(log).toBeInstanceOf(EmbeddedEventLog);
      expect(JSON.parse(await readFile(path.join(lakeDir, 'log', 'LOCK'), 'utf8'))).toMatchObject({
        pid: process.pid,
      });
    } finally {
      await log.close();
    }
  });

  it('opens Kafka with the configured topic prefix when KAFKA_BROKERS is set', async () => {
    const config = loadConfig({
      LAKE_DIR: lakeDir,
      KAFKA_BROKERS: broker.address,
      KAFKA_TOPIC_PREFIX: 'staging.',
    });
    const log = await openEventLog(config, logger);
    try {
      expect(log).toBeInstanceOf(KafkaEventLog);
      await log.publish('programs', [programRecord('program-1', 0)]);
      const plain = await KafkaEventLog.open({
        brokers: [broker.address],
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
    }
  });
});
