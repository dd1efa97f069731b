import type { EventEnvelope } from '../schemas/envelope.ts';

/** One message to append. The key picks the partition, so records with one key stay in order. */
export interface OutgoingRecord {
  key: string;
  value: EventEnvelope;
}

export interface ConsumedRecord {
  topic: string;
  partition: number;
  /** Offsets are decimal strings: Kafka offsets are 64-bit. */
  offset: string;
  key: string;
  value: EventEnvelope;
}

export interface DrainOptions {
  groupId: string;
  topics: string[];
  /**
   * Called with consecutive records of one partition. Offsets are committed only after it resolves, so a
   * consumer that dies mid-batch gets the batch again (at-least-once); handlers must be idempotent.
   */
  onBatch(records: ConsumedRecord[]): Promise<void>;
}

export interface ConsumeOptions extends DrainOptions {
  /** Ends the membership: the batch in hand is finished and committed, then `consume` resolves. */
  signal: AbortSignal;
  /** Upper bound of one onBatch call (and so of the work redone after a member dies); default: the back end's. */
  maxBatchRecords?: number;
}

/**
 * The pipeline's event log. The embedded back end (a durable log on disk) and the Kafka back end both
 * implement it and pass one contract test suite.
 */
export interface EventLog {
  /** Creates the topic if it does not exist (idempotent). */
  ensureTopic(topic: string, partitions?: number): Promise<void>;
  /** Appends records; they are durable once the promise resolves. */
  publish(topic: string, records: OutgoingRecord[]): Promise<void>;
  /**
   * Delivers, for a consumer group, every record after its committed offsets up to the end of each
   * partition as it was when the call started, then returns the number of records delivered.
   */
  drain(options: DrainOptions): Promise<number>;
  /**
   * Joins the consumer group as a long-running member: creates missing topics, then delivers the records
   * after the group's committed offsets on the partitions the group assigns this member, including records
   * published later, until `signal` aborts; resolves to the number of records handled. Members of one group
   * (in this process or, on Kafka, anywhere) split the partitions, and a partition changes hands only between
   * batches: when a member leaves or dies, its partitions go to the others from their last committed offset,
   * so a batch it had not committed is delivered again. Rejects with onBatch's error, that batch uncommitted.
   * `drain` and `resetGroup` refuse a group that has such a member.
   */
  consume(options: ConsumeOptions): Promise<number>;
  /** Moves the group's committed offsets back to the start, so the next drain replays the topics. */
  resetGroup(groupId: string, topics: string[]): Promise<void>;
  close(): Promise<void>;
}
