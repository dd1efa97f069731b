import type { EventEnvelope } from '../../schemas/envelope.ts';
import type { ConsumedRecord, OutgoingRecord } from '../../eventlog/event-log.ts';

/** A realistic incentive-program record as ingest would publish it; `sequence` orders records of one key. */
export function programRecord(key: string, sequence: number): OutgoingRecord {
  const value: EventEnvelope = {
    schema: 'incentive-program',
    version: 2,
    key,
    source: 'dsire-programs',
    sourceVersion: '2026-11-20T04:00:00Z#sha256:5f2b9c1e',
    producedAt: '2026-11-21T16:30:00.000Z',
    payload: {
      sequence,
      programId: key,
      state: 'VT',
      title: `Efficiency Vermont heat pump rebate (${sequence})`,
      amount: { type: 'dollars_per_unit', value: 350 + sequence, unit: 'ton' },
      eligibleTechnologies: ['ccashp', 'hpwh'],
      incomeCapped: sequence % 2 === 0,
    },
  };
  return { key, value };
}

/** Records for `keys` keys, interleaved: key-0 #0, key-1 #0, …, key-0 #1, … */
export function interleavedRecords(prefix: string, keys: number, perKey: number): OutgoingRecord[] {
  const records: OutgoingRecord[] = [];
  for (let sequence = 0; sequence < perKey; sequence++) {
    for (let k = 0; k < keys; k++) records.push(programRecord(`${prefix}-${k}`, sequence));
  }
  return records;
}

export function sequenceOf(record: ConsumedRecord): number {
  return (record.value.payload as { sequence: number }).sequence;
}

/** Records in a stable order (topic, partition, offset), for comparing two deliveries. */
export function byPosition(records: ConsumedRecord[]): ConsumedRecord[] {
  return [...records].sort(
    (a, b) =>
      a.topic.localeCompare(b.topic) || a.partition - b.partition || Number(a.offset) - Number(b.offset),
  );
}
