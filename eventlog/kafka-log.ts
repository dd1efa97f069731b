import { setTimeout } from 'node:timers/promises';
import {
  Kafka,
  logLevel,
  type Admin,
  type Consumer,
  type ICustomPartitioner,
  type LogEntry,
  type Message,
  type Producer,
} from 'kafkajs';
import type { Logger } from '../lib/log.ts';
import type { EventEnvelope } from '../schemas/envelope.ts';
import { DEFAULT_PARTITIONS } from './embedded-log.ts';
import type { ConsumedRecord, ConsumeOptions, DrainOptions, EventLog, OutgoingRecord } from './event-log.ts';
import { partitionForKey } from './partition-for-key.ts';

export interface KafkaEventLogOptions {
  brokers: string[];
  clientId: string;
  /**
   * Prepended to every topic and consumer group name (config KAFKA_TOPIC_PREFIX), so several deployments can
   * share a cluster.
   */
  topicPrefix: string;
  /** Partitions of a topic created without a count. */
  defaultPartitions?: number;
  logger?: Logger;
  /** Consumer session settings; the defaults keep group joins and shutdowns quick. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  maxWaitTimeInMs?: number;
}

/**
 * How kafkajs retries a request that failed for a reason that may pass: 300 ms doubling to at most 5 s, 15 times,
 * about a minute in all. Its defaults give up after about 9 s (5 retries; under NODE_ENV=test, 15 shorter ones),
 * which is how long a cluster takes to notice a dead broker (broker.session.timeout.ms) and elect new leaders for
 * its partitions: calls failed that should have waited that out. The 5 s cap keeps a client from sleeping long
 * past the recovery (with 30 s, one run's worker published nothing for 38 s after its group's coordinator died;
 * 12-17 s with 5 s). Given whole, so tests retry as production does.
 */
const RETRY = { initialRetryTime: 300, maxRetryTime: 5_000, factor: 0.2, multiplier: 2, retries: 15 };

/**
 * A consumer's retries: 5 (about 10 s), not RETRY's minute. kafkajs retries a commit with the coordinator the
 * member joined through, dead or alive, and a member retrying there for a minute takes no record meanwhile;
 * once the commit gives up, commitSlice has the member rejoin through the group's new coordinator. A consumer
 * whose retries run out elsewhere crashes, and kafkajs restarts it.
 */
const CONSUMER_RETRY = { ...RETRY, retries: 5 };

/** How old a consumer's cluster metadata may grow before it is read again (see newConsumer). */
const METADATA_MAX_AGE_MS = 10_000;

/** Kafka brokers refuse batches over message.max.bytes (1 MiB by default): publish in smaller sends. */
const MAX_SEND_BYTES = 512 * 1024;

/** A record as `publish` sends it: the envelope as JSON, on the partition its key picks. */
interface SendMessage extends Message {
  key: string;
  value: string;
  partition: number;
}

/** `messages` cut into consecutive sends of at most MAX_SEND_BYTES of values (one message at least). */
function sendsOf(messages: SendMessage[]): SendMessage[][] {
  const sends: SendMessage[][] = [];
  let bytes = 0;
  for (const message of messages) {
    const last = sends.at(-1);
    if (last === undefined || bytes + message.value.length > MAX_SEND_BYTES) {
      sends.push([message]);
      bytes = message.value.length;
    } else {
      last.push(message);
      bytes += message.value.length;
    }
  }
  return sends;
}

/** `publish` picks each record's partition itself (murmur2 of its key, as the embedded log does). */
const givenPartition: ICustomPartitioner =
  () =>
  ({ message }) =>
    message.partition!;

/**
 * The event log on Kafka (kafkajs): topics carry the envelope as a JSON value under the record's natural
 * key; consumer groups keep their committed offsets in Kafka.
 */
export class KafkaEventLog implements EventLog {
  /** Topics known to exist, by prefixed name, with their partition counts. */
  private readonly knownTopics = new Map<string, number>();

  private constructor(
    private readonly kafka: Kafka,
    private readonly admin: Admin,
    private readonly producer: Producer,
    private readonly options: KafkaEventLogOptions,
  ) {}

  static async open(options: KafkaEventLogOptions): Promise<KafkaEventLog> {
    const kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: logLevel.WARN,
      retry: RETRY,
      logCreator: () => (entry) => forwardLog(options.logger, entry),
    });
    const admin = kafka.admin();
    // Idempotent: a send retried after a lost answer or a leader change is written once (the broker drops a
    // batch whose sequence it has), so a broker dying mid-publish duplicates nothing. It needs acks all.
    const producer = kafka.producer({
      createPartitioner: givenPartition,
      allowAutoTopicCreation: false,
      idempotent: true,
      // Bounded, unlike kafkajs's default for an idempotent producer (forever): a publish fails its caller
      // after about a minute without a cluster. kafkajs warns at start that this "may invalidate EoS
      // guarantees"; the log claims at-least-once, and idempotence is there only against duplicates.
      retry: RETRY,
    });
    await admin.connect();
    try {
      await producer.connect();
    } catch (error) {
      await admin.disconnect();
      throw error;
    }
    return new KafkaEventLog(kafka, admin, producer, options);
  }

  async ensureTopic(topic: string, partitions?: number): Promise<void> {
    await this.partitionCount(topic, partitions);
  }

  async publish(topic: string, records: OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return;
    const name = this.topicName(topic);
    const partitions = await this.partitionCount(topic);
    const byPartition = new Map<number, SendMessage[]>();
    for (const { key, value } of records) {
      const partition = partitionForKey(key, partitions);
      const messages = byPartition.get(partition) ?? [];
      messages.push({ key, value: JSON.stringify(value), partition });
      byPartition.set(partition, messages);
    }
    // One partition per send: when a send to several leaders fails on one, kafkajs retries it only to the
    // brokers that did not answer, as they were, so a partition whose leader moved to one that had answered
    // would be left out. Sends of one partition run in order; partitions go concurrently.
    await Promise.all(
      [...byPartition.values()].map(async (messages) => {
        for (const send of sendsOf(messages))
          await this.producer.send({ topic: name, messages: send, acks: -1 });
      }),
    );
  }

  /**
   * Creates the topic unless it exists (its partitions then as they are, `partitions` ignored) and resolves to
   * its partition count once every partition has a leader. The replication factor is the cluster's
   * default.replication.factor (-1 asks for it; docs/event-log.md).
   */
  private async partitionCount(topic: string, partitions?: number): Promise<number> {
    const name = this.topicName(topic);
    const known = this.knownTopics.get(name);
    if (known !== undefined) return known;
    const numPartitions = partitions ?? this.options.defaultPartitions ?? DEFAULT_PARTITIONS;
    await this.admin.createTopics({
      topics: [{ topic: name, numPartitions, replicationFactor: -1 }],
      waitForLeaders: false,
    });
    // For a moment after CreateTopics the broker asked may not know the topic yet: kafkajs's own
    // waitForLeaders then gives up. The metadata of every topic lists it once it does, where asking for it by
    // name would be an error answer, which kafkajs logs as an error.
    const count = await retried(async () => {
      const { topics } = await this.admin.fetchTopicMetadata();
      const leaders = topics.find((t) => t.name === name)?.partitions ?? [];
      if (leaders.length === 0 || leaders.some((p) => p.leader < 0))
        throw Object.assign(new Error(`topic ${name} has partitions without a leader`), { retriable: true });
      return leaders.length;
    });
    this.knownTopics.set(name, count);
    return count;
  }

  async drain({ groupId, topics, onBatch }: DrainOptions): Promise<number> {
    const names = await this.existingTopics(topics);
    if (names.length === 0) return 0;
    const pending = await this.pendingPartitions(groupId, names);
    if (pending.size === 0) return 0;

    let delivered = 0;
    await this.asGroupMember(groupId, names, [...pending.keys()], async (member) => {
      const { consumer } = member;
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch, heartbeat }) => {
          const id = `${batch.topic}/${batch.partition}`;
          const end = pending.get(id);
          if (member.failed() || end === undefined) return;
          // Records past the end captured at the start belong to the next drain.
          const messages = batch.messages.filter((m) => Number(m.offset) < end);
          if (messages.length > 0) {
            try {
              await onBatch(messages.map((m) => this.consumed(batch.topic, batch.partition, m)));
            } catch (error) {
              member.fail(error);
              return;
            }
            const next = Number(messages.at(-1)!.offset) + 1;
            await commitSlice(consumer, [
              { topic: batch.topic, partition: batch.partition, offset: String(next) },
            ]);
            delivered += messages.length;
            if (next < end) return heartbeat();
          }
          pending.delete(id);
          consumer.pause([{ topic: batch.topic, partitions: [batch.partition] }]);
          if (pending.size === 0) member.finish();
        },
      });
    });
    return delivered;
  }

  async consume({ groupId, topics, onBatch, signal, maxBatchRecords }: ConsumeOptions): Promise<number> {
    const names = [...new Set(topics)];
    for (const topic of names) await this.ensureTopic(topic);
    let failure: unknown;
    let stopping = false;
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => {
      stop = () => {
        stopping = true;
        resolve();
      };
    });
    const fail = (error: unknown) => {
      failure ??= error;
      stop();
    };
    // Once stopping, a crash (a broker gone as the member leaves) is not restarted: kafkajs would restart
    // it even after the disconnect, and the restarted consumer kept the process alive, retrying the broker.
    const consumer = this.newConsumer(groupId, async () => !stopping);
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) stop();
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart && !stopping) fail(payload.error);
    });
    const heartbeatMs = this.options.heartbeatIntervalMs ?? 500;
    let delivered = 0;
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: names.map((t) => this.topicName(t)), fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        // Offsets are resolved one handled slice at a time, so a batch cut short is fetched again.
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
          const size = maxBatchRecords ?? batch.messages.length;
          for (let start = 0; start < batch.messages.length; start += size) {
            // A stop, or a rebalance that moved this partition, ends the batch between slices.
            if (signal.aborted || failure !== undefined || !isRunning() || isStale()) return;
            const slice = batch.messages.slice(start, start + size);
            // The group would drop a member silent for a session: keep beating while the handler works.
            const beating = setInterval(() => void heartbeat().catch(() => undefined), heartbeatMs);
            try {
              await onBatch(slice.map((m) => this.consumed(batch.topic, batch.partition, m)));
            } catch (error) {
              fail(error);
              return;
            } finally {
              clearInterval(beating);
            }
            const last = slice.at(-1)!.offset;
            // A commit the group refused (it rebalanced) throws to kafkajs, which rejoins; the slice is then
            // delivered again to whoever holds the partition.
            await commitSlice(consumer, [
              { topic: batch.topic, partition: batch.partition, offset: String(Number(last) + 1) },
            ]);
            resolveOffset(last);
            delivered += slice.length;
            await heartbeat();
          }
        },
      });
      await stopped;
    } finally {
      signal.removeEventListener('abort', stop);
      // Waits for the batch in hand, then leaves the group, whose other members take its partitions.
      await consumer.disconnect();
    }
    if (failure !== undefined) throw failure;
    return delivered;
  }

  /**
   * Commits each partition's earliest offset as a member of the group (JoinGroup, SyncGroup, OffsetCommit):
   * kafkajs's admin.resetOffsets would also need DescribeGroups, one more API a broker must serve.
   */
  async resetGroup(groupId: string, topics: string[]): Promise<void> {
    const names = await this.existingTopics(topics);
    if (names.length === 0) return;
    const earliest = (
      await Promise.all(
        names.map(async (topic) =>
          (await this.topicOffsets(topic)).map(({ partition, low }) => ({
            topic,
            partition,
            offset: low,
          })),
        ),
      )
    ).flat();
    await this.asGroupMember(
      groupId,
      names,
      earliest.map(({ topic, partition }) => `${topic}/${partition}`),
      async (member) => {
        // What it fetches meanwhile is ignored; it commits nothing else.
        await member.consumer.run({ autoCommit: false, eachBatch: async () => {} });
        await member.joined;
        await member.consumer.commitOffsets(earliest);
        member.finish();
      },
    );
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
    await this.admin.disconnect();
  }

  /** The prefixed names of those of `topics` that exist, each once. */
  private async existingTopics(topics: string[]): Promise<string[]> {
    const existing = new Set(await this.admin.listTopics());
    return [...new Set(topics)].map((topic) => this.topicName(topic)).filter((name) => existing.has(name));
  }

  /**
   * Runs `work` with a consumer of `names` in the group until it calls `finish` or `fail`. Fails when the group
   * assigns any of `required` (`topic/partition`) to another member: this one could never finish it.
   */
  private async asGroupMember(
    groupId: string,
    names: string[],
    required: string[],
    work: (member: GroupMember) => Promise<void>,
  ): Promise<void> {
    const consumer = this.newConsumer(groupId);
    let failure: unknown;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let joinedAlone!: () => void;
    const joined = new Promise<void>((resolve) => (joinedAlone = resolve));
    const fail = (error: unknown) => {
      failure ??= error;
      finish();
    };
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart) fail(payload.error);
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      const assigned = new Set(
        Object.entries(payload.memberAssignment).flatMap(([topic, partitions]) =>
          partitions.map((partition) => `${topic}/${partition}`),
        ),
      );
      const elsewhere = required.filter((id) => !assigned.has(id));
      if (elsewhere.length === 0) joinedAlone();
      else {
        fail(
          new Error(`consumer group ${groupId} has another active member holding ${elsewhere.join(', ')}`),
        );
      }
    });
    const member: GroupMember = { consumer, joined, finish, fail, failed: () => failure !== undefined };
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: names, fromBeginning: true });
      // `work` may wait for a join that fails instead; `finished` settles either way.
      void work(member).catch(fail);
      await finished;
    } finally {
      await consumer.disconnect();
    }
    if (failure !== undefined) throw failure;
  }

  /** `restartOnFailure`: whether kafkajs may restart the consumer after a retriable crash (default yes). */
  private newConsumer(groupId: string, restartOnFailure?: () => Promise<boolean>): Consumer {
    return this.kafka.consumer({
      groupId: this.groupName(groupId),
      retry: restartOnFailure === undefined ? CONSUMER_RETRY : { ...CONSUMER_RETRY, restartOnFailure },
      sessionTimeout: this.options.sessionTimeoutMs ?? 6000,
      heartbeatInterval: this.options.heartbeatIntervalMs ?? 500,
      maxWaitTimeInMs: this.options.maxWaitTimeInMs ?? 100,
      // A consumer fetches each partition from the leader its cached metadata names, and refreshes that
      // metadata only this often (kafkajs's default: 5 min): after a broker died, one run's pipeline saw no
      // results on the partitions it had led until its metadata aged, 297 s on, and one stalled past 120 s in CI.
      metadataMaxAge: METADATA_MAX_AGE_MS,
      allowAutoTopicCreation: false,
    });
  }

  /**
   * How far the group is behind on each partition of `topics` (those that exist): the partition's end offset
   * (high watermark) minus the group's committed offset, or minus its earliest offset when nothing is committed.
   */
  async consumerLag(groupId: string, topics: string[]): Promise<PartitionLag[]> {
    const positions = await this.groupPositions(groupId, await this.existingTopics(topics));
    return positions.map(({ name, partition, next, end }) => ({
      topic: name.slice(this.options.topicPrefix.length),
      partition,
      lag: end - next,
    }));
  }

  /**
   * Each partition's low and high offsets. kafkajs's admin asks the leaders its metadata names and gives up on
   * "not the leader" without refreshing it (it refreshes only for an unknown topic), so after a leader moves
   * (a new topic settling, a broker lost) this asks again through a new admin client, which reads fresh metadata.
   */
  private async topicOffsets(name: string): Promise<{ partition: number; high: string; low: string }[]> {
    try {
      return await this.admin.fetchTopicOffsets(name);
    } catch (error) {
      if (!isLeaderMoved(error)) throw error;
    }
    return retried(async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      try {
        return await admin.fetchTopicOffsets(name);
      } finally {
        await admin.disconnect();
      }
    });
  }

  /** `topic/partition` → the end offset, for every partition with records the group has not committed. */
  private async pendingPartitions(groupId: string, names: string[]): Promise<Map<string, number>> {
    const pending = new Map<string, number>();
    for (const { name, partition, next, end } of await this.groupPositions(groupId, names))
      if (next < end) pending.set(`${name}/${partition}`, end);
    return pending;
  }

  /** Per partition of the (prefixed) topics `names`: the group's next offset to read and the end offset. */
  private async groupPositions(
    groupId: string,
    names: string[],
  ): Promise<{ name: string; partition: number; next: number; end: number }[]> {
    if (names.length === 0) return [];
    // Each topic's offsets first, one topic after the other: kafkajs's fetchOffsets asks the coordinator for the
    // partitions its metadata lists, and topics it meets for the first time all at once can be missing from
    // that metadata (concurrent refreshes overwrite each other). A topic asked with no partitions comes back
    // with none, which read as nothing committed: a drain then waited for records the group had long read.
    const offsetsOf = new Map<string, Awaited<ReturnType<KafkaEventLog['topicOffsets']>>>();
    for (const name of names) offsetsOf.set(name, await this.topicOffsets(name));
    const committed = await retried(async () => {
      const answer = await this.admin.fetchOffsets({ groupId: this.groupName(groupId), topics: names });
      const missing = names.filter(
        (name) =>
          (answer.find((c) => c.topic === name)?.partitions.length ?? 0) < offsetsOf.get(name)!.length,
      );
      if (missing.length > 0)
        throw Object.assign(
          new Error(`offsets of group ${groupId} came back without partitions of ${missing.join(', ')}`),
          { retriable: true },
        );
      return answer;
    });
    const positions = [];
    for (const name of names) {
      const ofTopic = committed.find((c) => c.topic === name)!.partitions;
      // In partition order: kafkajs asks each partition's leader, and lists them as the brokers answered.
      for (const { partition, high, low } of offsetsOf.get(name)!.sort((a, b) => a.partition - b.partition)) {
        const commit = Number(ofTopic.find((p) => p.partition === partition)?.offset ?? -1);
        // Negative offsets mean "none" (-1) or "reset to earliest" (-2, written by resetOffsets).
        positions.push({ name, partition, next: commit < 0 ? Number(low) : commit, end: Number(high) });
      }
    }
    return positions;
  }

  private consumed(
    topic: string,
    partition: number,
    message: { offset: string; key: Buffer | null; value: Buffer | null },
  ): ConsumedRecord {
    let value: EventEnvelope;
    try {
      value = JSON.parse(message.value?.toString('utf8') ?? '') as EventEnvelope;
    } catch {
      throw new Error(`${topic}/${partition} offset ${message.offset}: value is not a JSON event envelope`);
    }
    return {
      topic: topic.slice(this.options.topicPrefix.length),
      partition,
      offset: message.offset,
      key: message.key?.toString('utf8') ?? '',
      value,
    };
  }

  private topicName(topic: string): string {
    return `${this.options.topicPrefix}${topic}`;
  }

  /**
   * Consumer groups carry the prefix too: kafkajs's round-robin assignment deals every topic any member of a
   * group subscribes to among all its members, so two deployments sharing a group name would be handed each
   * other's partitions.
   */
  private groupName(groupId: string): string {
    return `${this.options.topicPrefix}${groupId}`;
  }
}

/** Records of one partition a consumer group has yet to commit. */
export interface PartitionLag {
  topic: string;
  partition: number;
  lag: number;
}

/** One consumer in a group, as `asGroupMember` hands it to its work. */
interface GroupMember {
  consumer: Consumer;
  /** Resolves once the group has assigned this member every partition it requires. */
  joined: Promise<void>;
  finish(): void;
  fail(error: unknown): void;
  failed(): boolean;
}

/**
 * Runs a request again while its error is retriable (kafkajs's errors say so), for up to a minute, as long as
 * kafkajs's own retries (RETRY). kafkajs's admin retries most requests itself but not fetchOffsets, which a group
 * coordinator refuses for a few seconds while it loads the offsets topic (a new cluster, a group's first use)
 * or after it moved (its broker died).
 */
async function retried<T>(request: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 100; ; wait = Math.min(2 * wait, 2000)) {
    try {
      return await request();
    } catch (error) {
      if ((error as { retriable?: unknown }).retriable !== true || Date.now() + wait > deadline) throw error;
      await setTimeout(wait);
    }
  }
}

/** The refusals that mean the group moved on without this member: kafkajs rejoins the group on them. */
const GROUP_MOVED_ON = new Set([
  'REBALANCE_IN_PROGRESS',
  'NOT_COORDINATOR_FOR_GROUP',
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
]);

/**
 * The errors by which a commit says the group's coordinator cannot be reached: its broker is dead (or gone
 * from the cluster's metadata). kafkajs keeps the coordinator it joined through and asks it again for as long
 * as it retries, and then again on the next batch; only a rejoin looks the coordinator up anew.
 */
const COORDINATOR_UNREACHABLE = new Set([
  'KafkaJSBrokerNotFound',
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
]);

/**
 * Commits a consumed slice's offsets. kafkajs's retrier wraps a commit the group refused (it rebalanced, or
 * a new coordinator took over) in a non-retriable error without the refusal's type, and a consumer whose
 * batch throws that crashes instead of rejoining: the refusal itself is thrown, so it rejoins, and the
 * slice, not resolved, goes again to whoever holds the partition. A coordinator that cannot be reached is
 * thrown as NOT_COORDINATOR_FOR_GROUP, which is what it means to kafkajs: it rejoins, finding the new one (or,
 * should that fail too, crashes and restarts). Against a dead coordinator this halved the wait for the
 * member's next record (one run each: 25 s, 49 s without).
 */
export async function commitSlice(
  consumer: Pick<Consumer, 'commitOffsets'>,
  offsets: Parameters<Consumer['commitOffsets']>[0],
): Promise<void> {
  try {
    await consumer.commitOffsets(offsets);
  } catch (error) {
    const cause = (error as { cause?: { type?: unknown; name?: unknown; message?: unknown } }).cause;
    if (cause === undefined) throw error;
    if (GROUP_MOVED_ON.has(String(cause.type))) throw cause;
    if (COORDINATOR_UNREACHABLE.has(String(cause.name))) {
      throw Object.assign(
        new Error(`the group's coordinator cannot be reached (${String(cause.message)})`, { cause }),
        { type: 'NOT_COORDINATOR_FOR_GROUP' },
      );
    }
    throw error;
  }
}

/** A partition's leader changed since the client last read the cluster's metadata. */
function isLeaderMoved(error: unknown): boolean {
  const type = (error as { type?: unknown }).type;
  return type === 'NOT_LEADER_FOR_PARTITION' || type === 'LEADER_NOT_AVAILABLE';
}

function forwardLog(logger: Logger | undefined, { namespace, level, log }: LogEntry): void {
  if (!logger) return;
  const { message, timestamp: _timestamp, ...details } = log;
  const fields = { kafka: namespace, ...details };
  if (level === logLevel.ERROR) logger.error(fields, message);
  else if (level === logLevel.WARN) logger.warn(fields, message);
  else if (level === logLevel.INFO) logger.info(fields, message);
  else logger.debug(fields, message);
}
