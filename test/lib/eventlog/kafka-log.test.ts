import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaEventLog } from '../../../lib/eventlog/kafka-log.ts';
import { partitionForKey } from '../../../lib/eventlog/partition-for-key.ts';
import { KafkaTestBroker } from '../../support/kafka-broker/kafka-broker.ts';
import { describeEventLogContract } from './event-log-contract.ts';
import { programRecord } from './envelopes.ts';

let broker: KafkaTestBroker;
beforeAll(async () => {
  broker = await KafkaTestBroker.start();
});
afterAll(async () => {
  await broker.stop();
  expect(broker.protocolErrors).toEqual([]);
});

// Each store is its own topic prefix on the one broker, so tests never see each other's records.
describeEventLogContract('kafka (kafkajs against the in-process test broker)', (store) =>
  KafkaEventLog.open({ brokers: [broker.address], clientId: 'eventlog-contract', topicPrefix: `${store}.` }),
);

describe('KafkaEventLog.consumerLag', () => {
  it("is each partition's end offset minus the group's committed offset (the earliest before any commit)", async () => {
    const log = await KafkaEventLog.open({ brokers: [broker.address], clientId: 'lag', topicPrefix: 'lag.' });
    try {
      await log.ensureTopic('programs', 2);
      // Keys that land on partition 0 and on partition 1 (murmur2, as in Kafka's default partitioner).
      const onPartition = (partition: number) =>
        Array.from({ length: 40 }, (_, i) => `program-${i}`).filter(
          (key) => partitionForKey(key, 2) === partition,
        );
      const [first, second] = [onPartition(0), onPartition(1)];
      await log.publish('programs', [
        ...first.slice(0, 3).map((key) => programRecord(key, 1)),
        ...second.slice(0, 2).map((key) => programRecord(key, 1)),
      ]);
      expect(await log.consumerLag('lag-readers', ['programs', 'no-such-topic'])).toEqual([
        { topic: 'programs', partition: 0, lag: 3 },
        { topic: 'programs', partition: 1, lag: 2 },
      ]);
      await log.drain({ groupId: 'lag-readers', topics: ['programs'], onBatch: async () => {} });
      await log.publish('programs', [programRecord(second[0]!, 2)]);
      expect(await log.consumerLag('lag-readers', ['programs'])).toEqual([
        { topic: 'programs', partition: 0, lag: 0 },
        { topic: 'programs', partition: 1, lag: 1 },
      ]);
    } finally {
      await log.close();
    }
  }, 60_000);
});
