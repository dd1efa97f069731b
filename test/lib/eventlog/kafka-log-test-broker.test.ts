import { setTimeout } from 'node:timers/promises';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaEventLog } from '../../../lib/eventlog/kafka-log.ts';
import { KafkaTestBroker } from '../../support/kafka-broker/kafka-broker.ts';
import { interleavedRecords } from './envelopes.ts';

let broker: KafkaTestBroker;
let kafka: Kafka;
beforeAll(async () => {
  broker = await KafkaTestBroker.start();
  kafka = new Kafka({ clientId: 'broker-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
});
afterAll(async () => {
  await broker.stop();
  expect(broker.protocolErrors).toEqual([]);
});

/** Polls a condition that the group protocol reaches asynchronously (heartbeats, rejoins). */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 15_000) throw new Error(`gave up waiting for ${what}`);
    await setTimeout(50);
  }
}

describe('in-process Kafka test broker', () => {
  it('rebalances a consumer group when a member joins and when it leaves', async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'rebalance', numPartitions: 4 }] });
    await admin.disconnect();
    const assigned: Record<string, number[]> = {};
    const consumed: string[] = [];
    const start = async (name: string): Promise<Consumer> => {
      const consumer = kafka.consumer({
        groupId: 'rebalance-group',
        sessionTimeout: 6000,
        heartbeatInterval: 200,
        maxWaitTimeInMs: 100,
      });
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
        assigned[name] = [...(payload.memberAssignment['rebalance'] ?? [])].sort();
      });
      await consumer.connect();
      await consumer.subscribe({ topic: 'rebalance', fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => void consumed.push(`${partition}/${message.offset}`),
      });
      return consumer;
    };

    const first = await start('first');
    await eventually(() => assigned.first?.length === 4, 'the first member to get every partition');
    const second = await start('second');
    await eventually(
      () => assigned.first?.length === 2 && assigned.second?.length === 2,
      'the partitions to be split between two members',
    );
    expect([...assigned.first!, ...assigned.second!].sort()).toEqual([0, 1, 2, 3]);

    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: 'rebalance',
      messages: interleavedRecords('program', 8, 5).map(({ key, value }) => ({
        key,
        value: JSON.stringify(value),
      })),
    });
    await producer.disconnect();
    await eventually(() => consumed.length >= 40, 'both members to consume the 40 records');
    expect(new Set(consumed).size).toBe(40);

    await second.disconnect();
    await eventually(() => assigned.first?.length === 4, 'the remaining member to take every partition back');
    await first.disconnect();
  });

  /** A log and another running member of `groupId` that the group has given partitions of `topic`. */
  async function withOtherMember(
    groupId: string,
    topic: string,
    act: (log: KafkaEventLog) => Promise<void>,
  ): Promise<void> {
    const log = await KafkaEventLog.open({ brokers: [broker.address], clientId: 'drainer', topicPrefix: '' });
    await log.ensureTopic(topic, 2);
    await log.publish(topic, interleavedRecords('program', 6, 2));
    const other = kafka.consumer({ groupId, heartbeatInterval: 200, maxWaitTimeInMs: 100 });
    let joined = false;
    other.on(other.events.GROUP_JOIN, () => void (joined = true));
    await other.connect();
    await other.subscribe({ topic, fromBeginning: true });
    await other.run({ autoCommit: false, eachBatch: async () => {} });
    await eventually(() => joined, 'the other member to join');
    try {
      await act(log);
    } finally {
      await other.disconnect();
      await log.close();
    }
  }

  it('makes a drain fail, not hang, while another member of its group holds partitions', async () => {
    await withOtherMember('shared-group', 'shared', async (log) => {
      await expect(
        log.drain({ groupId: 'shared-group', topics: ['shared'], onBatch: async () => {} }),
      ).rejects.toThrow(/^consumer group shared-group has another active member holding shared\/\d$/);
    });
  });

  it('makes a reset fail, not hang, while another member of its group holds partitions', async () => {
    await withOtherMember('reset-group', 'reset', async (log) => {
      await expect(log.resetGroup('reset-group', ['reset'])).rejects.toThrow(
        /^consumer group reset-group has another active member holding reset\/\d$/,
      );
    });
  });
});
