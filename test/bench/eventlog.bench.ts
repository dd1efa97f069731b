import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventLog } from '../../eventlog/embedded-log.ts';
import type { OutgoingRecord } from '../../eventlog/event-log.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';

const RECORDS = 200_000;
const PUBLISH_CALL = 5_000;

/** A ~300-byte record (envelope JSON) like the pipeline's smaller incentive rows. */
function record(i: number): OutgoingRecord {
  const key = `program-${i % 20_000}`;
  return {
    key,
    value: {
      schema: 'incentive-program',
      version: 1,
      key,
      source: 'dsire-programs',
      sourceVersion: '2026-11-20#5f2b9c1e',
      producedAt: '2026-11-21T16:30:00.000Z',
      payload: {
        sequence: i,
        state: 'VT',
        title: 'Cold-climate heat pump rebate',
        amount: 350 + (i % 500),
        unit: 'ton',
        technologies: ['ccashp', 'hpwh'],
      },
    },
  };
}

export const bench: Bench = {
  title: 'Embedded event log throughput',
  async run(): Promise<BenchResult[]> {
    const directory = await mkdtemp(path.join(tmpdir(), 'eventlog-bench-'));
    try {
      const bytes = Buffer.byteLength(JSON.stringify(record(0).value));
      // Records are made one publish call at a time, as ingest does, so the drain below does not run in
      // a heap crowded by every record (which would measure the garbage collector, not the log).
      const chunk = (from: number) => Array.from({ length: PUBLISH_CALL }, (_, i) => record(from + i));
      const log = await EmbeddedEventLog.open({ directory });
      await log.ensureTopic('programs', 4);
      let publishSeconds = 0;
      for (let from = 0; from < RECORDS; from += PUBLISH_CALL) {
        const records = chunk(from);
        const started = performance.now();
        await log.publish('programs', records);
        publishSeconds += (performance.now() - started) / 1000;
      }
      await log.close();

      let started = performance.now();
      const reopened = await EmbeddedEventLog.open({ directory });
      const reopenSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      let drained = 0;
      await reopened.drain({
        groupId: 'bench',
        topics: ['programs'],
        onBatch: async (batch) => void (drained += batch.length),
      });
      const drainSeconds = (performance.now() - started) / 1000;
      await reopened.close();
      if (drained !== RECORDS) throw new Error(`drained ${drained} of ${RECORDS} records`);

      // The floor under drain: parsing the same JSON values with nothing else around it.
      let parseSeconds = 0;
      for (let from = 0; from < RECORDS; from += PUBLISH_CALL) {
        const values = chunk(from).map((r) => JSON.stringify(r.value));
        const started = performance.now();
        for (const value of values) JSON.parse(value);
        parseSeconds += (performance.now() - started) / 1000;
      }

      const note = `${RECORDS} records of ~${bytes} bytes, 4 partitions`;
      return [
        {
          name: 'publish',
          value: Math.round(RECORDS / publishSeconds),
          unit: 'records/s',
          target: { op: '>=', value: 50_000 },
          note: `${note}, ${PUBLISH_CALL} records per publish (each fsynced)`,
        },
        {
          name: 'drain',
          value: Math.round(RECORDS / drainSeconds),
          unit: 'records/s',
          // ~300k records "in a few seconds".
          target: { op: '>=', value: 100_000 },
          note: `${note}, offsets committed after every batch`,
        },
        {
          name: 'JSON.parse of the same values (reference)',
          value: Math.round(RECORDS / parseSeconds),
          unit: 'records/s',
          note: 'no target: shows how much of drain is parsing on this machine right now',
        },
        {
          name: 'reopen (checksum scan of every frame)',
          value: Math.round(reopenSeconds * 1000),
          unit: 'ms',
          note,
        },
      ];
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  },
};
