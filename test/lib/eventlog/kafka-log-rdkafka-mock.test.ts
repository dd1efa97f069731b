import { afterAll, beforeAll, describe } from 'vitest';
import { KafkaEventLog } from '../../../lib/eventlog/kafka-log.ts';
import { buildMockBroker, RdkafkaMockBroker } from '../../support/rdkafka-mock/rdkafka-mock-broker.ts';
import { describeEventLogContract } from './event-log-contract.ts';

// The Kafka back end against a second, independent Kafka implementation: librdkafka's mock cluster. It needs
// gcc and Debian's librdkafka-dev; .ci/run installs them and sets RDKAFKA_MOCK_REQUIRED so CI cannot skip it.
const build = await buildMockBroker();
const unavailable = 'unavailable' in build ? build.unavailable : undefined;
if (unavailable !== undefined) {
  if (process.env.RDKAFKA_MOCK_REQUIRED) throw new Error(`RDKAFKA_MOCK_REQUIRED is set, but ${unavailable}`);
  console.log(`EventLog contract against librdkafka's mock cluster not run: ${unavailable}`);
}

describe.skipIf(unavailable !== undefined)("librdkafka's mock cluster", () => {
  let broker: RdkafkaMockBroker;
  beforeAll(async () => {
    if ('binary' in build) broker = await RdkafkaMockBroker.start(build.binary);
  });
  afterAll(async () => {
    await broker.stop();
  });

  // The mock serves no CreateTopics request, so topics are created through its own API. Its group joins wait
  // 3 s and its rejoins sessionTimeout − 1 s; a session above those 3 s keeps members from expiring mid-join.
  // Its group does not settle when a second kafkajs member joins (SyncGroup answers REBALANCE_IN_PROGRESS over
  // and over), so the two-member cases run against the in-process broker only.
  describeEventLogContract(
    "kafka (kafkajs against librdkafka's mock cluster)",
    (store) =>
      KafkaEventLog.open({
        brokers: [broker.address],
        clientId: 'eventlog-contract',
        topicPrefix: `${store}.`,
        createTopic: (name, partitions) => broker.createTopic(name, partitions),
        sessionTimeoutMs: 4000,
      }),
    { rebalances: false },
  );
});
