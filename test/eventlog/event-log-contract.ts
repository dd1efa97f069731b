import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsumedRecord, EventLog } from '../../eventlog/event-log.ts';
import { partitionForKey } from '../../eventlog/partition-for-key.ts';
import type { EventEnvelope } from '../../schemas/envelope.ts';
import { byPosition, interleavedRecords, programRecord, sequenceOf } from './envelopes.ts';

/**
 * Opens an event log over the storage named `store`. Every test uses a fresh name; opening the same
 * name again (after close) must reach the same records and committed offsets.
 */
export type OpenEventLog = (store: string) => Promise<EventLog>;

/** The behaviour every EventLog back end must show; run by each back end's test file. */
export function describeEventLogContract(name: string, open: OpenEventLog): void {
  describe(`EventLog contract: ${name}`, () => {
    const opened: EventLog[] = [];
    const openLog = async (store: string): Promise<EventLog> => {
      const log = await open(store);
      opened.push(log);
      return log;
    };
    const freshStore = (): string => `s${randomUUID().slice(0, 8)}`;
    const collect = async (log: EventLog, groupId: string, topics: string[]) => {
      const records: ConsumedRecord[] = [];
      const batches: ConsumedRecord[][] = [];
      const count = await log.drain({
        groupId,
        topics,
        onBatch: async (batch) => {
          batches.push(batch);
          records.push(...batch);
        },
      });
      return { count, records, batches };
    };

    const position = (r: ConsumedRecord): string => `${r.topic}/${r.partition}/${r.offset}`;
    /** A `consume` member of `groupId` that keeps what it handled; `stop` aborts it and settles its call. */
    const member = (
      log: EventLog,
      groupId: string,
      topics: string[],
      handle: (batch: ConsumedRecord[]) => Promise<void>,
      maxBatchRecords?: number,
    ) => {
      const controller = new AbortController();
      const handled: ConsumedRecord[] = [];
      const done = log.consume({
        groupId,
        topics,
        signal: controller.signal,
        ...(maxBatchRecords ? { maxBatchRecords } : {}),
        onBatch: async (batch) => {
          await handle(batch);
          handled.push(...batch);
        },
      });
      done.catch(() => undefined); // a test that expects a rejection awaits it
      const stop = async () => {
        controller.abort();
        return done;
      };
      return { handled, done, stop };
    };

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((log) => log.close()));
    });

    it('keeps the records of one key in order on the partition the murmur2 partitioner picks', async () => {
      const store = freshStore();
      const log = await openLog(store);
      await log.ensureTopic('programs', 4);
      const records = interleavedRecords('program', 12, 15);
      await log.publish('programs', records.slice(0, 70));
      await log.publish('programs', records.slice(70));

      const { count, records: consumed } = await collect(log, `${store}-readers`, ['programs']);

      expect(count).toBe(180);
      expect(consumed).toHaveLength(180);
      for (let k = 0; k < 12; k++) {
        const key = `program-${k}`;
        const ofKey = consumed.filter((r) => r.key === key);
        expect(ofKey.map(sequenceOf)).toEqual([...Array(15).keys()]);
        expect(new Set(ofKey.map((r) => r.partition))).toEqual(new Set([partitionForKey(key, 4)]));
      }
      for (const partition of new Set(consumed.map((r) => r.partition))) {
        const offsets = consumed.filter((r) => r.partition === partition).map((r) => r.offset);
        expect(offsets).toEqual([...offsets.keys()].map(String));
      }
    });

    it('delivers only the records that were on the log when the drain started', async () => {
      const store = freshStore();
      const log = await openLog(store);
      await log.ensureTopic('programs', 1);
      await log.publish('programs', interleavedRecords('early', 1, 5));
      const seen: string[] = [];

      const count = await log.drain({
        groupId: `${store}-readers`,
        topics: ['programs'],
        onBatch: async (batch) => {
          seen.push(...batch.map((r) => r.key));
          if (seen.length === batch.length) await log.publish('programs', interleavedRecords('late', 1, 3));
        },
      });

      expect(count).toBe(5);
      expect(seen).toEqual(Array(5).fill('early-0'));
      const next = await collect(log, `${store}-readers`, ['programs']);
      expect(next.count).toBe(3);
      expect(next.records.map((r) => [r.offset, r.key])).toEqual([
        ['5', 'late-0'],
        ['6', 'late-0'],
        ['7', 'late-0'],
      ]);
    });

    it('keeps committed offsets across close and reopen', async () => {
      const store = freshStore();
      const group = `${store}-readers`;
      const first = await openLog(store);
      await first.ensureTopic('programs', 2);
      await first.publish('programs', interleavedRecords('program', 5, 10));
      expect((await collect(first, group, ['programs'])).count).toBe(50);
      await first.close();

      const reopened = await openLog(store);
      expect((await collect(reopened, group, ['programs'])).count).toBe(0);
      await reopened.publish('programs', [programRecord('program-3', 10), programRecord('program-4', 10)]);
      const after = await collect(reopened, group, ['programs']);

      expect(after.count).toBe(2);
      expect(after.records.map((r) => [r.key, sequenceOf(r)]).sort()).toEqual([
        ['program-3', 10],
        ['program-4', 10],
      ]);
    });

    it('redelivers a batch whose handler threw, and rejects the drain with that error', async () => {
      const store = freshStore();
      const group = `${store}-readers`;
      const log = await openLog(store);
      await log.ensureTopic('programs', 1);
      await log.publish('programs', interleavedRecords('program', 4, 5));
      const failure = new Error('lake table write failed');

      await expect(
        log.drain({
          groupId: group,
          topics: ['programs'],
          onBatch: async () => {
            throw failure;
          },
        }),
      ).rejects.toBe(failure);

      const retry = await collect(log, group, ['programs']);
      expect(retry.count).toBe(20);
      expect(retry.records.map((r) => r.offset)).toEqual([...Array(20).keys()].map(String));
    });

    it('commits the batches handled before a failing one', async () => {
      const store = freshStore();
      const group = `${store}-readers`;
      const log = await openLog(store);
      await log.ensureTopic('first', 1);
      await log.ensureTopic('second', 1);
      await log.publish('first', interleavedRecords('a', 2, 3));
      await log.publish('second', interleavedRecords('b', 2, 4));
      const handled: ConsumedRecord[][] = [];

      await expect(
        log.drain({
          groupId: group,
          topics: ['first', 'second'],
          onBatch: async (batch) => {
            if (handled.length === 1) throw new Error('second batch fails');
            handled.push(batch);
          },
        }),
      ).rejects.toThrow('second batch fails');

      const retry = await collect(log, group, ['first', 'second']);
      const handledKeys = new Set(handled.flat().map((r) => `${r.topic}/${r.offset}`));
      const retriedKeys = retry.records.map((r) => `${r.topic}/${r.offset}`);
      expect(handled.flat().length + retry.count).toBe(14);
      expect(retriedKeys.filter((k) => handledKeys.has(k))).toEqual([]);
    });

    it('replays the same records after resetGroup', async () => {
      const store = freshStore();
      const group = `${store}-readers`;
      const log = await openLog(store);
      await log.ensureTopic('programs', 3);
      await log.publish('programs', interleavedRecords('program', 6, 4));
      const first = await collect(log, group, ['programs']);

      await log.resetGroup(group, ['programs']);
      const replay = await collect(log, group, ['programs']);

      expect(first.count).toBe(24);
      expect(replay.count).toBe(24);
      expect(byPosition(replay.records)).toEqual(byPosition(first.records));
    });

    it('resets only the topics it is given', async () => {
      const store = freshStore();
      const group = `${store}-readers`;
      const log = await openLog(store);
      await log.ensureTopic('programs', 2);
      await log.ensureTopic('tariffs', 2);
      await log.publish('programs', interleavedRecords('program', 3, 2));
      await log.publish('tariffs', interleavedRecords('tariff', 2, 2));
      expect((await collect(log, group, ['programs', 'tariffs'])).count).toBe(10);

      await log.resetGroup(group, ['tariffs']);
      const replay = await collect(log, group, ['programs', 'tariffs']);

      expect(replay.count).toBe(4);
      expect(new Set(replay.records.map((r) => r.topic))).toEqual(new Set(['tariffs']));
    });

    it('tracks each consumer group independently', async () => {
      const store = freshStore();
      const log = await openLog(store);
      await log.ensureTopic('programs', 2);
      await log.publish('programs', interleavedRecords('program', 4, 3));

      const lake = await collect(log, `${store}-lake`, ['programs']);
      const audit = await collect(log, `${store}-audit`, ['programs']);
      const lakeAgain = await collect(log, `${store}-lake`, ['programs']);

      expect([lake.count, audit.count, lakeAgain.count]).toEqual([12, 12, 0]);
      expect(byPosition(audit.records)).toEqual(byPosition(lake.records));
    });

    it('drains empty and missing topics to nothing without calling the handler', async () => {
      const store = freshStore();
      const log = await openLog(store);
      await log.ensureTopic('programs', 2);
      await log.ensureTopic('programs', 2);

      const drained = await collect(log, `${store}-readers`, ['programs', 'never-created']);

      expect(drained.count).toBe(0);
      expect(drained.batches).toEqual([]);
    });

    it('publishes to a topic that was not created first', async () => {
      const store = freshStore();
      const log = await openLog(store);
      await log.publish('programs', interleavedRecords('program', 3, 1));
      expect((await collect(log, `${store}-readers`, ['programs'])).count).toBe(3);
    });

    it('carries a publish of 10,000 records, each delivered once', async () => {
      const store = freshStore();
      const log = await openLog(store);
      await log.ensureTopic('programs', 4);
      await log.publish('programs', interleavedRecords('program', 1000, 10));

      const { count, records, batches } = await collect(log, `${store}-readers`, ['programs']);

      expect(count).toBe(10_000);
      expect(new Set(records.map((r) => `${r.partition}/${r.offset}`)).size).toBe(10_000);
      expect(new Set(records.map((r) => `${r.key}#${sequenceOf(r)}`)).size).toBe(10_000);
      for (const batch of batches) expect(new Set(batch.map((r) => r.partition)).size).toBe(1);
    });

    it('consumes as a group member until aborted, records published later too, then commits where it stopped', async () => {
      const store = freshStore();
      const group = `${store}-workers`;
      const log = await openLog(store);
      await log.publish('units', interleavedRecords('early', 3, 2));
      const worker = member(log, group, ['units'], async () => {});
      await until(() => worker.handled.length === 6);
      await log.publish('units', interleavedRecords('late', 2, 2));
      await until(() => worker.handled.length === 10);

      expect(await worker.stop()).toBe(10);
      expect(worker.handled.map((r) => [r.key, sequenceOf(r)]).sort()).toEqual(
        [...interleavedRecords('early', 3, 2), ...interleavedRecords('late', 2, 2)]
          .map((r) => [r.key, (r.value.payload as { sequence: number }).sequence])
          .sort(),
      );
      await log.publish('units', [programRecord('after-0', 0)]);
      const next = await collect(log, group, ['units']);
      expect(next.records.map((r) => r.key)).toEqual(['after-0']);
    });

    it('splits the partitions between two members of one group, and every record is handled', async () => {
      const store = freshStore();
      const group = `${store}-workers`;
      const log = await openLog(store);
      await log.ensureTopic('units', 4);
      const records = interleavedRecords('unit', 40, 5);
      await log.publish('units', records);
      // Each member goes slowly until the other has handled something, so neither can finish alone first.
      const members: ReturnType<typeof member>[] = [];
      const pace = (other: () => ReturnType<typeof member> | undefined) => async () => {
        if ((other()?.handled.length ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      };
      members.push(
        member(
          log,
          group,
          ['units'],
          pace(() => members[1]),
          1,
        ),
      );
      members.push(
        member(
          log,
          group,
          ['units'],
          pace(() => members[0]),
          1,
        ),
      );
      const all = () => new Set(members.flatMap((m) => m.handled.map(position)));
      await until(() => all().size === records.length, 60_000);
      await Promise.all(members.map((m) => m.stop()));

      expect(members.map((m) => m.handled.length > 0)).toEqual([true, true]);
      // At least once: a rebalance may hand a record to both members, but none is left out.
      expect(all().size).toBe(records.length);
      expect(new Set(members.flatMap((m) => m.handled.map((r) => `${r.key}#${sequenceOf(r)}`))).size).toBe(
        200,
      );
      expect((await collect(log, group, ['units'])).count).toBe(0);
    }, 90_000);

    it('redelivers the batch of a member that died mid-batch to another member of the group', async () => {
      const store = freshStore();
      const group = `${store}-workers`;
      const log = await openLog(store);
      await log.ensureTopic('units', 1);
      await log.publish('units', interleavedRecords('unit', 4, 3));
      const crash = new Error('worker died mid-batch');
      const lost: ConsumedRecord[] = [];
      const crashOnce = async (batch: ConsumedRecord[]) => {
        if (lost.length > 0) return;
        lost.push(...batch);
        throw crash;
      };
      const members = [
        member(log, group, ['units'], crashOnce, 5),
        member(log, group, ['units'], crashOnce, 5),
      ];
      const crashed = await Promise.race(
        members.map((m, i) =>
          m.done.then(
            () => -1,
            () => i,
          ),
        ),
      );
      const survivor = members[1 - crashed]!;
      await until(() => survivor.handled.length >= 12, 60_000);
      await survivor.stop();

      await expect(members[crashed]!.done).rejects.toBe(crash);
      expect(lost.map(position)).toEqual(['units/0/0', 'units/0/1', 'units/0/2', 'units/0/3', 'units/0/4']);
      expect(survivor.handled.map(position)).toEqual([...Array(12).keys()].map((o) => `units/0/${o}`));
      expect((await collect(log, group, ['units'])).count).toBe(0);
    }, 90_000);

    it('round-trips envelopes exactly', async () => {
      const store = freshStore();
      const log = await openLog(store);
      await log.ensureTopic('mixed', 1);
      const envelopes: EventEnvelope[] = [
        {
          schema: 'utility-tariff',
          version: 1,
          key: 'tariff:Consolidated Edison/EL1',
          source: 'openei-urdb',
          sourceVersion: 'v7 2026-10-01',
          producedAt: '2026-11-21T16:30:00.123Z',
          payload: {
            name: 'Residential – Rate I «EL1» ✓ 電気',
            energyRates: [0.18743, 0.2011, 1e-7, -0.5],
            fixedMonthly: 18.0,
            demand: null,
            nested: { deep: { list: [[], {}, '', 'tab\tnewline\n'] } },
          },
        },
        {
          schema: 'source-version',
          version: 1,
          key: 'openei-urdb@v7',
          source: 'openei-urdb',
          sourceVersion: 'v7 2026-10-01',
          producedAt: '2026-11-21T16:31:00Z',
          payload: 'a payload can be a bare string',
        },
      ];
      await log.publish(
        'mixed',
        envelopes.map((value) => ({ key: value.key, value })),
      );

      const { records } = await collect(log, `${store}-readers`, ['mixed']);

      expect(records.map((r) => ({ key: r.key, value: r.value }))).toEqual(
        envelopes.map((value) => ({ key: value.key, value })),
      );
      expect(records.map((r) => [r.topic, r.partition, r.offset])).toEqual([
        ['mixed', 0, '0'],
        ['mixed', 0, '1'],
      ]);
    });
  });
}

/** Waits until `condition` holds, checking every 20 ms; fails after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
