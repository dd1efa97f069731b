import { afterAll, beforeAll, expect } from 'vitest';
import { KafkaEventLog } from '../../../lib/eventlog/kafka-log.ts';
import { KafkaTestBroker } from '../../support/kafka-broker/kafka-broker.ts';
import { describeEventLogContract } from './event-log-contract.ts';

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
