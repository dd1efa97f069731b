import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from './error-codes.ts';
import { GroupCoordinator, type JoinRequest } from './group-coordinator.ts';
import { CorruptRecordSetError, PartitionLog } from './partition-log.ts';

/** A RecordBatch v2 header (61 bytes) plus `bodyBytes` of record bytes, holding `records` records. */
function recordBatch(records: number, bodyBytes = 10, magic = 2): Buffer {
  const batch = Buffer.alloc(61 + bodyBytes);
  batch.writeBigInt64BE(0n, 0);
  batch.writeInt32BE(batch.length - 12, 8);
  batch.writeInt8(magic, 16);
  batch.writeInt32BE(records - 1, 23);
  batch.writeInt32BE(records, 57);
  return batch;
}
const baseOffsetsOf = (recordSet: Buffer): number[] => {
  const offsets: number[] = [];
  for (let at = 0; at < recordSet.length; at += 12 + recordSet.readInt32BE(at + 8)) {
    offsets.push(Number(recordSet.readBigInt64BE(at)));
  }
  return offsets;
};

describe('PartitionLog (test broker)', () => {
  it('gives each appended batch the next offsets by rewriting its baseOffset', () => {
    const log = new PartitionLog();
    expect(log.append(recordBatch(3))).toBe(0);
    expect(log.append(Buffer.concat([recordBatch(2), recordBatch(4)]))).toBe(3);
    expect(log.highWatermark).toBe(9);
    expect(baseOffsetsOf(log.read(0, 1 << 20))).toEqual([0, 3, 5]);
  });

  it('reads from the batch holding the fetch offset, whole batches within maxBytes but at least one', () => {
    const log = new PartitionLog();
    log.append(recordBatch(3, 100));
    log.append(recordBatch(3, 100));
    log.append(recordBatch(3, 100));
    expect(baseOffsetsOf(log.read(4, 1 << 20))).toEqual([3, 6]);
    expect(baseOffsetsOf(log.read(4, 200))).toEqual([3]);
    expect(baseOffsetsOf(log.read(4, 10))).toEqual([3]);
    expect(log.read(9, 1 << 20)).toHaveLength(0);
  });

  it('refuses record sets that are not RecordBatch v2 or are cut short', () => {
    const log = new PartitionLog();
    expect(() => log.append(recordBatch(1, 10, 1))).toThrow(CorruptRecordSetError);
    expect(() => log.append(recordBatch(1).subarray(0, 65))).toThrow(CorruptRecordSetError);
    expect(log.highWatermark).toBe(0);
  });
});

describe('GroupCoordinator (test broker)', () => {
  let now = 1_000_000;
  const coordinators: GroupCoordinator[] = [];
  const coordinator = () => {
    const created = new GroupCoordinator(() => now);
    coordinators.push(created);
    return created;
  };
  afterEach(() => coordinators.splice(0).forEach((c) => c.stop()));
  const join = (memberId = '', clientId = 'app'): JoinRequest => ({
    groupId: 'lake',
    memberId,
    clientId,
    clientHost: '127.0.0.1',
    sessionTimeoutMs: 6000,
    rebalanceTimeoutMs: 60_000,
    protocolType: 'consumer',
    protocols: [{ name: 'RoundRobinAssigner', metadata: Buffer.from('meta') }],
  });

  it('makes a lone member the leader of generation 1 and hands it the assignment it syncs', async () => {
    const groups = coordinator();
    const joined = await groups.join(join());
    expect(joined).toMatchObject({ errorCode: 0, generationId: 1, leaderId: joined.memberId });
    expect(joined.members).toEqual([{ memberId: joined.memberId, metadata: Buffer.from('meta') }]);

    const synced = await groups.sync(
      'lake',
      1,
      joined.memberId,
      new Map([[joined.memberId, Buffer.from('p0-3')]]),
    );

    expect(synced).toEqual({ errorCode: 0, assignment: Buffer.from('p0-3') });
    expect(groups.describe('lake')).toMatchObject({ state: 'Stable', protocolName: 'RoundRobinAssigner' });
  });

  it('holds a new member until the current one learns of the rebalance by heartbeat and rejoins', async () => {
    const groups = coordinator();
    const first = await groups.join(join());
    await groups.sync('lake', 1, first.memberId, new Map());
    let secondJoined = false;
    const second = groups.join(join('', 'other')).then((result) => ((secondJoined = true), result));
    await Promise.resolve();

    expect(secondJoined).toBe(false);
    expect(groups.heartbeat('lake', 1, first.memberId)).toBe(ErrorCode.REBALANCE_IN_PROGRESS);
    const rejoined = await groups.join(join(first.memberId));
    const joinedSecond = await second;

    expect([rejoined.generationId, joinedSecond.generationId]).toEqual([2, 2]);
    expect(rejoined.leaderId).toBe(first.memberId);
    expect(rejoined.members.map((m) => m.memberId).sort()).toEqual(
      [first.memberId, joinedSecond.memberId].sort(),
    );
    expect(joinedSecond.members).toEqual([]);
  });

  it('rejects commits from unknown members and old generations, and accepts tool commits to an empty group', () => {
    const groups = coordinator();
    const offsets = [{ topic: 'programs', partition: 0, offset: 42, metadata: null }];
    expect(groups.commit('lake', -1, '', offsets)).toBe(ErrorCode.NONE);
    expect(groups.committed('lake', 'programs', 0)).toEqual({ offset: 42, metadata: null });
    expect(groups.commit('lake', 3, 'nobody', offsets)).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  });

  it('drops a member whose session times out and leaves the group empty', async () => {
    const groups = coordinator();
    const member = await groups.join(join());
    await groups.sync('lake', 1, member.memberId, new Map());

    now += 6001;
    groups.expireSilentMembers();

    expect(groups.heartbeat('lake', 1, member.memberId)).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
    expect(groups.describe('lake')).toMatchObject({ state: 'Empty', members: [] });
  });

  it('describes a group it has never seen as Dead', () => {
    expect(coordinator().describe('never')).toMatchObject({ state: 'Dead', members: [] });
  });
});
