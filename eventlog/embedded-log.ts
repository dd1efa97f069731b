import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../lib/log.ts';
import type { EventEnvelope } from '../schemas/envelope.ts';
import { fsyncPath, writeFileAtomically } from '../lib/fs/durable-file.ts';
import { lockDirectory, type DirectoryLock } from './directory-lock.ts';
import type { ConsumedRecord, ConsumeOptions, DrainOptions, EventLog, OutgoingRecord } from './event-log.ts';
import { GroupOffsetStore, type CommittedOffsets } from './group-offsets.ts';
import { PartitionFile } from './partition-file.ts';
import { partitionForKey } from './partition-for-key.ts';
import type { StoredRecord } from './record-frame.ts';

export interface EmbeddedEventLogOptions {
  /** Directory holding the log (the pipeline uses `<LAKE_DIR>/log`); created if missing. */
  directory: string;
  /** Partitions of a topic created without a count (by ensureTopic or a first publish). */
  defaultPartitions?: number;
  /** Upper bounds of one onBatch call. */
  maxBatchRecords?: number;
  maxBatchBytes?: number;
  logger?: Logger;
}

export const DEFAULT_PARTITIONS = 4;
const TOPIC_FILE = 'topic.json';

/** Kafka's rule for topic names, which also keeps them safe as directory names. */
const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

interface Topic {
  partitions: PartitionFile[];
}

/** A consumer group as this process holds it: its offsets (read once, then kept here) and who consumes. */
interface GroupState {
  committed: CommittedOffsets;
  /** Settles once `committed` holds the offsets on disk. */
  loaded: Promise<void>;
  /** Serialises writes of the group's offsets file. */
  writes: Promise<unknown>;
  /** The `consume` members, in the order they joined (which decides the assignment). */
  members: GroupMember[];
  /** Partitions (`topic/partition`) a member is handling a batch of: none changes hands until it is done. */
  busy: Set<string>;
  draining: boolean;
}

interface GroupMember {
  topics: Set<string>;
  /** Where its next search for work starts among its partitions, so none of them is starved. */
  cursor: number;
}

interface PartitionWork {
  topic: string;
  partition: number;
  file: PartitionFile;
  next: number;
}

/**
 * The default event log: a durable append-only log in one directory, used by one process at a time.
 *
 *   LOCK/holder.json                  the process that has the log open (lib/fs/lock-file.ts)
 *   topics/<topic>/topic.json         { partitions }
 *   topics/<topic>/<partition>.log    checksummed frames, one per record (see record-frame.ts)
 *   groups/<group>.json               committed offsets of a consumer group
 */
export class EmbeddedEventLog implements EventLog {
  private readonly topics = new Map<string, Topic>();
  private readonly groupStates = new Map<string, GroupState>();
  /** Wakes consumers waiting for records, offsets or members to change. */
  private waiters = new Set<() => void>();
  /** Serialises changes to the log (topic creation, appends); reads go alongside. */
  private writes: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly directory: string,
    private readonly lock: DirectoryLock,
    private readonly groups: GroupOffsetStore,
    private readonly defaultPartitions: number,
    private readonly batchLimits: { maxRecords: number; maxBytes: number },
    private readonly logger: Logger | undefined,
  ) {}

  /** Opens the log, taking its lock and cutting off any torn tail a crash left behind. */
  static async open(options: EmbeddedEventLogOptions): Promise<EmbeddedEventLog> {
    const directory = path.resolve(options.directory);
    await mkdir(path.join(directory, 'topics'), { recursive: true });
    await mkdir(path.join(directory, 'groups'), { recursive: true });
    const lock = await lockDirectory(directory);
    const log = new EmbeddedEventLog(
      directory,
      lock,
      new GroupOffsetStore(path.join(directory, 'groups')),
      checkPartitionCount(options.defaultPartitions ?? DEFAULT_PARTITIONS),
      { maxRecords: options.maxBatchRecords ?? 5000, maxBytes: options.maxBatchBytes ?? 4 * 1024 * 1024 },
      options.logger,
    );
    try {
      await log.loadTopics();
    } catch (error) {
      await log.close();
      throw error;
    }
    return log;
  }

  async ensureTopic(topic: string, partitions?: number): Promise<void> {
    this.checkOpen();
    checkTopicName(topic);
    const count = checkPartitionCount(partitions ?? this.defaultPartitions);
    await this.serialised(async () => {
      await this.createTopic(topic, count);
    });
  }

  async publish(topic: string, records: OutgoingRecord[]): Promise<void> {
    this.checkOpen();
    checkTopicName(topic);
    await this.serialised(async () => {
      if (records.length === 0) return;
      const { partitions } = await this.createTopic(topic, this.defaultPartitions);
      const byPartition = new Map<number, StoredRecord[]>();
      for (const { key, value } of records) {
        const partition = partitionForKey(key, partitions.length);
        const list = byPartition.get(partition) ?? [];
        if (list.length === 0) byPartition.set(partition, list);
        list.push({ key, value });
      }
      await Promise.all([...byPartition].map(([partition, list]) => partitions[partition]!.append(list)));
    });
    this.wakeConsumers();
  }

  async drain({ groupId, topics, onBatch }: DrainOptions): Promise<number> {
    this.checkOpen();
    checkGroupId(groupId);
    const group = await this.groupState(groupId);
    claimGroup(group, groupId);
    group.draining = true;
    try {
      // The end of every partition now: records published while draining wait for the next drain.
      const ends = [...new Set(topics)].flatMap((topic) =>
        (this.topics.get(topic)?.partitions ?? []).map((file, partition) => ({
          topic,
          partition,
          file,
          end: file.endOffset,
        })),
      );
      let delivered = 0;
      for (const { topic, partition, file, end } of ends) {
        let next = group.committed[topic]?.[partition] ?? 0;
        while (next < end) {
          const batch = await file.read(next, end, this.batchLimits, recordOf(topic, partition));
          await onBatch(batch);
          next += batch.length;
          delivered += batch.length;
          await this.commit(groupId, group, topic, partition, next);
        }
      }
      return delivered;
    } finally {
      group.draining = false;
    }
  }

  async consume({ groupId, topics, onBatch, signal, maxBatchRecords }: ConsumeOptions): Promise<number> {
    this.checkOpen();
    checkGroupId(groupId);
    for (const topic of new Set(topics)) await this.ensureTopic(topic);
    const group = await this.groupState(groupId);
    if (group.draining) throw new Error(`consumer group ${groupId} is being drained`);
    const member: GroupMember = { topics: new Set(topics), cursor: 0 };
    group.members.push(member);
    this.wakeConsumers(); // the others give up the partitions now assigned to the new member
    const limits = { ...this.batchLimits, ...(maxBatchRecords ? { maxRecords: maxBatchRecords } : {}) };
    let delivered = 0;
    try {
      while (!signal.aborted) {
        this.checkOpen();
        const work = this.assignedWork(group, member);
        if (!work) {
          await this.nextChange(signal);
          continue;
        }
        const { topic, partition, file, next } = work;
        const id = `${topic}/${partition}`;
        group.busy.add(id);
        try {
          const batch = await file.read(next, file.endOffset, limits, recordOf(topic, partition));
          await onBatch(batch);
          await this.commit(groupId, group, topic, partition, next + batch.length);
          delivered += batch.length;
        } finally {
          group.busy.delete(id);
          this.wakeConsumers();
        }
      }
      return delivered;
    } finally {
      group.members.splice(group.members.indexOf(member), 1);
      this.wakeConsumers(); // its partitions go to the others
    }
  }

  async resetGroup(groupId: string, topics: string[]): Promise<void> {
    this.checkOpen();
    checkGroupId(groupId);
    const group = await this.groupState(groupId);
    claimGroup(group, groupId);
    for (const topic of topics) delete group.committed[topic];
    await this.writeOffsets(groupId, group);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wakeConsumers();
    await this.writes.catch(() => undefined);
    for (const group of this.groupStates.values()) await group.writes;
    for (const { partitions } of this.topics.values()) {
      await Promise.all(partitions.map((file) => file.close()));
    }
    this.topics.clear();
    await this.lock.release();
  }

  /**
   * The first partition, from the member's cursor on, that the group assigns it and that has records past
   * its committed offset and no batch in another member's hands. Each topic's partitions are dealt round
   * robin to the members subscribed to it, in the order they joined.
   */
  private assignedWork(group: GroupState, member: GroupMember): PartitionWork | undefined {
    const assigned: Omit<PartitionWork, 'next'>[] = [];
    for (const topic of member.topics) {
      const files = this.topics.get(topic)?.partitions ?? [];
      const subscribers = group.members.filter((m) => m.topics.has(topic));
      const index = subscribers.indexOf(member);
      for (let partition = index; partition < files.length; partition += subscribers.length) {
        assigned.push({ topic, partition, file: files[partition]! });
      }
    }
    for (let i = 0; i < assigned.length; i++) {
      const candidate = assigned[(member.cursor + i) % assigned.length]!;
      const next = group.committed[candidate.topic]?.[candidate.partition] ?? 0;
      if (group.busy.has(`${candidate.topic}/${candidate.partition}`) || next >= candidate.file.endOffset)
        continue;
      member.cursor = (member.cursor + i + 1) % assigned.length;
      return { ...candidate, next };
    }
    return undefined;
  }

  /** Resolves at the next publish, commit, join, leave or close, or when `signal` aborts. */
  private nextChange(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.waiters.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      this.waiters.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  private wakeConsumers(): void {
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const wake of waiting) wake();
  }

  /** The group's state, its offsets read from disk on first use. */
  private async groupState(groupId: string): Promise<GroupState> {
    let group = this.groupStates.get(groupId);
    if (!group) {
      const created: GroupState = {
        committed: {},
        loaded: Promise.resolve(),
        writes: Promise.resolve(),
        members: [],
        busy: new Set(),
        draining: false,
      };
      created.loaded = this.groups.read(groupId).then((committed) => {
        created.committed = committed;
      });
      created.loaded.catch(() => this.groupStates.delete(groupId));
      this.groupStates.set(groupId, created);
      group = created;
    }
    await group.loaded;
    return group;
  }

  private async commit(
    groupId: string,
    group: GroupState,
    topic: string,
    partition: number,
    next: number,
  ): Promise<void> {
    group.committed[topic] = { ...group.committed[topic], [partition]: next };
    await this.writeOffsets(groupId, group);
  }

  /** Writes the group's offsets as they are when its turn comes (offsets of several members, one file). */
  private async writeOffsets(groupId: string, group: GroupState): Promise<void> {
    const written = group.writes.then(() => this.groups.write(groupId, group.committed));
    group.writes = written.catch(() => undefined);
    await written;
  }

  private async loadTopics(): Promise<void> {
    const topicsDirectory = path.join(this.directory, 'topics');
    for (const topic of (await readdir(topicsDirectory)).sort()) {
      const descriptor = await readTopicDescriptor(path.join(topicsDirectory, topic));
      // A directory without a descriptor is a creation cut short; ensureTopic completes it.
      if (descriptor) this.topics.set(topic, await this.openTopic(topic, descriptor.partitions));
    }
    await this.clampCommittedOffsets();
  }

  /**
   * A torn tail never holds acknowledged records, but a damaged file can lose some that groups have
   * already committed past. Pull those offsets back to the end, or the group would silently skip the
   * records published next.
   */
  private async clampCommittedOffsets(): Promise<void> {
    for (const groupId of await this.groups.list()) {
      const committed = await this.groups.read(groupId);
      let clamped = false;
      for (const [topic, partitions] of Object.entries(committed)) {
        for (const [partition, next] of Object.entries(partitions)) {
          const end = this.topics.get(topic)?.partitions[Number(partition)]?.endOffset ?? 0;
          if (next <= end) continue;
          this.logger?.warn(
            { groupId, topic, partition, committed: next, end },
            'event log: committed offset moved back to the end of a damaged partition',
          );
          partitions[partition] = end;
          clamped = true;
        }
      }
      if (clamped) await this.groups.write(groupId, committed);
    }
  }

  private async createTopic(topic: string, partitions: number): Promise<Topic> {
    const existing = this.topics.get(topic);
    if (existing) return existing;
    const topicDirectory = path.join(this.directory, 'topics', topic);
    await mkdir(topicDirectory, { recursive: true });
    const opened = await this.openTopic(topic, partitions);
    await fsyncPath(topicDirectory);
    // The descriptor is written last: its presence means the topic is complete.
    await writeFileAtomically(path.join(topicDirectory, TOPIC_FILE), `${JSON.stringify({ partitions })}\n`);
    await fsyncPath(path.join(this.directory, 'topics'));
    this.topics.set(topic, opened);
    return opened;
  }

  private async openTopic(topic: string, partitions: number): Promise<Topic> {
    const files: PartitionFile[] = [];
    for (let partition = 0; partition < partitions; partition++) {
      const file = path.join(this.directory, 'topics', topic, `${partition}.log`);
      const { partition: opened, recovery } = await PartitionFile.open(file);
      if (recovery.truncatedBytes > 0) {
        this.logger?.warn(
          { topic, partition, truncatedBytes: recovery.truncatedBytes },
          'event log: cut off a torn tail left by an interrupted write',
        );
      }
      files.push(opened);
    }
    return { partitions: files };
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const result = this.writes.then(work);
    this.writes = result.catch(() => undefined);
    return result;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error(`event log at ${this.directory} is closed`);
  }
}

async function readTopicDescriptor(topicDirectory: string): Promise<{ partitions: number } | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path.join(topicDirectory, TOPIC_FILE), 'utf8')) as {
      partitions: number;
    };
    return { partitions: checkPartitionCount(parsed.partitions) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Makes a partition's stored records consumed records. */
function recordOf(topic: string, partition: number) {
  return (key: string, value: EventEnvelope, offset: number): ConsumedRecord => ({
    topic,
    partition,
    offset: String(offset),
    key,
    value,
  });
}

/** `drain` and `resetGroup` need the group to themselves. */
function claimGroup(group: GroupState, groupId: string): void {
  if (group.members.length > 0) throw new Error(`consumer group ${groupId} has active consume members`);
  if (group.draining) throw new Error(`consumer group ${groupId} is being drained`);
}

function checkTopicName(topic: string): void {
  if (!TOPIC_NAME.test(topic) || topic === '.' || topic === '..') {
    throw new RangeError(`topic "${topic}" is not a valid name (1-249 of a-z A-Z 0-9 . _ -)`);
  }
}

function checkGroupId(groupId: string): void {
  if (groupId.length === 0) throw new RangeError('groupId must not be empty');
}

function checkPartitionCount(partitions: number): number {
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > 10_000) {
    throw new RangeError(`partitions must be an integer from 1 to 10000, got ${partitions}`);
  }
  return partitions;
}
