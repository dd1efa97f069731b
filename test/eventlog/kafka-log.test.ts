import { setTimeout } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaEventLog } from '../../eventlog/kafka-log.ts';
import { partitionForKey } from '../../eventlog/partition-for-key.ts';
import { kafkaUnavailable } from '../support/engines/engines.ts';
import { startKafkaCluster, type KafkaCluster } from '../support/engines/kafka-cluster.ts';
import { describeEventLogContract } from './event-log-contract.ts';
import { interleavedRecords, programRecord, sequenceOf } from './envelopes.ts';

// The Kafka back end against a real Apache Kafka cluster: 3 KRaft nodes, replication factor 3,
// min.insync.replicas 2 (test/support/engines/kafka-cluster.ts), one cluster for the whole file.
const unavailable = kafkaUnavailable('the Kafka event log specs');

describe.skipIf(unavailable !== undefined)('the Kafka event log on a 3-node Apache Kafka cluster', () => {
  let cluster: KafkaCluster;
  beforeAll(async () => {
    const started = Date.now();
    cluster = await startKafkaCluster();
    console.log(`a 3-node Kafka cluster formatted and started in ${Date.now() - started} ms`);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  const open = (clientId: string, topicPrefix: string) =>
    KafkaEventLog.open({ brokers: cluster.brokers, clientId, topicPrefix });

  // Each store is its own topic prefix on the one cluster, so tests never see each other's records.
  describeEventLogContract('kafka (kafkajs against Apache Kafka)', (store) =>
    open('eventlog-contract', `${store}.`),
  );

  describe('KafkaEventLog.consumerLag', () => {
    it("is each partition's end offset minus the group's committed offset (the earliest before any commit)", async () => {
      const log = await open('lag', 'lag.');
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

  describe('a group with another active member', () => {
    /** A log and another running member of `groupId` that the group has given partitions of `topic`. */
    async function withOtherMember(
      groupId: string,
      topic: string,
      act: (log: KafkaEventLog) => Promise<void>,
    ): Promise<void> {
      const log = await open('drainer', '');
      await log.ensureTopic(topic, 2);
      await log.publish(topic, interleavedRecords('program', 6, 2));
      const kafka = new Kafka({ clientId: 'other', brokers: cluster.brokers, logLevel: logLevel.NOTHING });
      const other = kafka.consumer({ groupId, heartbeatInterval: 200, maxWaitTimeInMs: 100 });
      let joined = false;
      other.on(other.events.GROUP_JOIN, () => void (joined = true));
      await other.connect();
      await other.subscribe({ topic, fromBeginning: true });
      await other.run({ autoCommit: false, eachBatch: async () => {} });
      for (let waited = 0; !joined; waited += 50) {
        if (waited > 15_000) throw new Error('the other member did not join');
        await setTimeout(50);
      }
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
    }, 60_000);

    it('keeps apart deployments of other prefixes whose groups have the same name', async () => {
      const [a, b] = [await open('deployment-a', 'a.'), await open('deployment-b', 'b.')];
      const controller = new AbortController();
      try {
        await a.publish('units', interleavedRecords('a', 4, 1));
        await b.publish('units', interleavedRecords('b', 4, 1));
        const seenByA: string[] = [];
        const member = a.consume({
          groupId: 'workers',
          topics: ['units'],
          signal: controller.signal,
          onBatch: async (batch) => void seenByA.push(...batch.map((r) => r.key)),
        });
        for (let waited = 0; seenByA.length < 4; waited += 50) {
          if (waited > 30_000) throw new Error('the member of a.workers did not handle its units');
          await setTimeout(50);
        }
        // Had the groups one name on the cluster, this drain would be dealt a.units partitions and refuse.
        const drainedByB: string[] = [];
        await b.drain({
          groupId: 'workers',
          topics: ['units'],
          onBatch: async (batch) => void drainedByB.push(...batch.map((r) => r.key)),
        });
        controller.abort();
        await member;
        expect(drainedByB.sort()).toEqual(['b-0', 'b-1', 'b-2', 'b-3']);
        expect(seenByA.sort()).toEqual(['a-0', 'a-1', 'a-2', 'a-3']);
      } finally {
        controller.abort();
        await Promise.all([a.close(), b.close()]);
      }
    }, 60_000);

    it('makes a reset fail, not hang, while another member of its group holds partitions', async () => {
      await withOtherMember('reset-group', 'reset', async (log) => {
        await expect(log.resetGroup('reset-group', ['reset'])).rejects.toThrow(
          /^consumer group reset-group has another active member holding reset\/\d$/,
        );
      });
    }, 60_000);
  });
  describe('replication', () => {
    const metadataOf = async (topic: string) => {
      const kafka = new Kafka({ clientId: 'metadata', brokers: cluster.brokers, logLevel: logLevel.NOTHING });
      const admin = kafka.admin();
      await admin.connect();
      try {
        return (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!.partitions;
      } finally {
        await admin.disconnect();
      }
    };

    it("creates topics with the cluster's replication factor: every partition on the three brokers", async () => {
      const log = await open('replicas', 'replicas.');
      try {
        await log.ensureTopic('programs', 4);
        const partitions = await metadataOf('replicas.programs');
        expect(partitions.map((p) => [p.replicas.length, p.isr.length])).toEqual(Array(4).fill([3, 3]));
      } finally {
        await log.close();
      }
    }, 60_000);

    // Last in this file: it kills a broker, and the tests after it would meet a cluster still recovering.
    it('publishes, drains and follows while a broker is dead; restarted, it rejoins every partition', async () => {
      const log = await open('failover', 'failover.');
      const following = new AbortController();
      let follower: Promise<number> | undefined;
      try {
        await log.ensureTopic('programs', 6);
        await log.publish('programs', interleavedRecords('before', 30, 2));
        // A follower in a group node 1 coordinates: once it is killed, its commits must find the new coordinator
        // (kafkajs keeps asking the dead one), or it would take no further record.
        let group = 0;
        while ((await cluster.coordinatorOf(`failover.followers-${group}`)) !== 1) group++;
        const followerGroup = `followers-${group}`;
        const followed = new Set<string>();
        follower = log.consume({
          groupId: followerGroup,
          topics: ['programs'],
          signal: following.signal,
          onBatch: async (batch) => batch.forEach((r) => followed.add(`${r.key}#${sequenceOf(r)}`)),
        });
        const followedAll = async (count: number, timeoutMs: number) => {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const lags = await log.consumerLag(followerGroup, ['programs']);
            if (followed.size === count && lags.every(({ lag }) => lag === 0)) return;
            if (Date.now() > deadline) {
              throw new Error(
                `the follower took ${followed.size} of ${count} records, lags ${JSON.stringify(lags)}`,
              );
            }
            await setTimeout(250);
          }
        };
        await followedAll(60, 30_000);
        const killed = Date.now();
        await cluster.kill(1);
        // Partitions node 1 led have no leader until the controller fences it (broker.session.timeout.ms, 9 s)
        // and elects another from the in-sync replicas; the sends to them wait and retry meanwhile.
        await log.publish('programs', interleavedRecords('after', 30, 2));
        const publishedAfter = Date.now() - killed;
        const drained: string[] = [];
        await log.drain({
          groupId: 'failover-readers',
          topics: ['programs'],
          onBatch: async (batch) => void drained.push(...batch.map((r) => `${r.key}#${sequenceOf(r)}`)),
        });
        const drainedAfter = Date.now() - killed;
        expect(drained).toHaveLength(120);
        expect(new Set(drained).size).toBe(120);
        await followedAll(120, 60_000);
        const followedAfter = Date.now() - killed;
        following.abort();
        await follower;
        expect(
          (await metadataOf('failover.programs')).every((p) => p.leader !== 1 && !p.isr.includes(1)),
        ).toBe(true);

        const restarting = Date.now();
        await cluster.restart(1);
        const restarted = Date.now();
        for (;;) {
          const partitions = await metadataOf('failover.programs');
          if (partitions.every((p) => p.isr.includes(1))) break;
          if (Date.now() - restarted > 60_000) throw new Error('node 1 did not rejoin the in-sync replicas');
          await setTimeout(250);
        }
        console.log(
          `broker 1 killed: the publish after it done in ${publishedAfter} ms, the drain in ${drainedAfter} ms, ` +
            `every record followed and committed in ${followedAfter} ms; ` +
            `restarted in ${restarted - restarting} ms, back in every partition's in-sync replicas ` +
            `${Date.now() - restarted} ms later`,
        );
      } finally {
        following.abort();
        await follower?.catch(() => undefined);
        await log.close();
      }
    }, 180_000);
  });
});
