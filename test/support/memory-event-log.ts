import { createHash } from 'node:crypto';
import type {
  ConsumedRecord,
  ConsumeOptions,
  DrainOptions,
  EventLog,
  OutgoingRecord,
} from '../../eventlog/event-log.ts';

/**
 * An EventLog held in memory, for unit tests. It keeps the contract's observable rules: publishing to a
 * topic that was never ensured fails, a key always lands on the same partition, offsets are committed per
 * group only after `onBatch` resolves, and `drain` stops at the end each partition had when it started.
 * `consume` takes one member per group (the contract's sharing between members is the real back ends').
 */
export class MemoryEventLog implements EventLog {
  private readonly topics = new Map<string, OutgoingRecord[][]>();
  /** groupId → "topic/partition" → next offset to deliver. */
  private readonly committed = new Map<string, Map<string, number>>();
  private closed = false;
  private readonly consuming = new Set<string>();
  private published = new Set<() => void>();

  async ensureTopic(topic: string, partitions = 1): Promise<void> {
    this.assertOpen();
    if (!this.topics.has(topic)) {
      this.topics.set(
        topic,
        Array.from({ length: partitions }, () => []),
      );
    }
  }

  async publish(topic: string, records: OutgoingRecord[]): Promise<void> {
    this.assertOpen();
    const partitions = this.topics.get(topic);
    if (!partitions) throw new Error(`topic "${topic}" does not exist`);
    for (const record of records) {
      partitions[partitionOf(record.key, partitions.length)]!.push(structuredClone(record));
    }
    const waiting = this.published;
    this.published = new Set();
    for (const wake of waiting) wake();
  }

  async consume(options: ConsumeOptions): Promise<number> {
    this.assertOpen();
    if (this.consuming.has(options.groupId)) throw new Error(`group ${options.groupId} already has a member`);
    this.consuming.add(options.groupId);
    for (const topic of options.topics) await this.ensureTopic(topic);
    let delivered = 0;
    try {
      while (!options.signal.aborted) {
        const handled = await this.drain(options);
        delivered += handled;
        if (handled > 0) continue;
        // Each wait removes its abort listener when it ends, as the real logs do (one per wait piled up).
        await new Promise<void>((resolve) => {
          const wake = () => {
            this.published.delete(wake);
            options.signal.removeEventListener('abort', wake);
            resolve();
          };
          this.published.add(wake);
          options.signal.addEventListener('abort', wake, { once: true });
        });
      }
    } finally {
      this.consuming.delete(options.groupId);
    }
    return delivered;
  }

  async drain(options: DrainOptions): Promise<number> {
    this.assertOpen();
    const offsets = this.groupOffsets(options.groupId);
    const ends = options.topics.map((topic) => (this.topics.get(topic) ?? []).map((m) => m.length));
    let delivered = 0;
    for (const [t, topic] of options.topics.entries()) {
      const partitions = this.topics.get(topic) ?? [];
      for (const [partition, messages] of partitions.entries()) {
        const slot = `${topic}/${partition}`;
        const from = offsets.get(slot) ?? 0;
        const end = ends[t]![partition]!;
        if (from >= end) continue;
        const batch: ConsumedRecord[] = messages.slice(from, end).map((message, i) => ({
          topic,
          partition,
          offset: String(from + i),
          key: message.key,
          value: structuredClone(message.value),
        }));
        await options.onBatch(batch);
        offsets.set(slot, end);
        delivered += batch.length;
      }
    }
    return delivered;
  }

  async resetGroup(groupId: string, topics: string[]): Promise<void> {
    this.assertOpen();
    const offsets = this.groupOffsets(groupId);
    for (const slot of [...offsets.keys()]) {
      if (topics.some((topic) => slot.startsWith(`${topic}/`))) offsets.delete(slot);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Every record of a topic, partition by partition in offset order (for assertions). */
  records(topic: string): OutgoingRecord[] {
    return (this.topics.get(topic) ?? []).flat();
  }

  /** Names of the topics that exist. */
  topicNames(): string[] {
    return [...this.topics.keys()].sort();
  }

  private groupOffsets(groupId: string): Map<string, number> {
    let offsets = this.committed.get(groupId);
    if (!offsets) {
      offsets = new Map();
      this.committed.set(groupId, offsets);
    }
    return offsets;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event log is closed');
  }
}

function partitionOf(key: string, partitions: number): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) % partitions;
}
