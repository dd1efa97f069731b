import { randomUUID } from 'node:crypto';
import { ErrorCode } from './error-codes.ts';

export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable';

export interface JoinRequest {
  groupId: string;
  memberId: string;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  protocols: { name: string; metadata: Buffer }[];
}

export interface JoinResult {
  errorCode: number;
  generationId: number;
  protocolName: string;
  leaderId: string;
  memberId: string;
  /** Filled for the leader only: it computes the assignment. */
  members: { memberId: string; metadata: Buffer }[];
}

export interface SyncResult {
  errorCode: number;
  assignment: Buffer;
}

export interface CommittedOffset {
  offset: number;
  metadata: string | null;
}

export interface GroupDescription {
  state: GroupState | 'Dead';
  protocolType: string;
  protocolName: string;
  members: { memberId: string; clientId: string; clientHost: string; metadata: Buffer; assignment: Buffer }[];
}

interface Member {
  id: string;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocols: { name: string; metadata: Buffer }[];
  assignment: Buffer;
  lastSeen: number;
  pendingJoin?: (result: JoinResult) => void;
  pendingSync?: (result: SyncResult) => void;
}

interface Group {
  id: string;
  state: GroupState;
  generationId: number;
  protocolType: string;
  protocolName: string;
  leaderId: string;
  members: Map<string, Member>;
  offsets: Map<string, Map<number, CommittedOffset>>;
  rebalanceTimer?: NodeJS.Timeout;
}

const EMPTY = Buffer.alloc(0);

/**
 * Consumer-group coordination as a Kafka broker does it, reduced to what a test needs: the join/sync
 * rebalance protocol (members learn of a rebalance from their heartbeat and rejoin), session expiry,
 * and committed offsets held in memory.
 */
export class GroupCoordinator {
  private readonly groups = new Map<string, Group>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.expireSilentMembers(), 100);
    this.sweeper.unref();
  }

  join(request: JoinRequest): Promise<JoinResult> {
    const group = this.group(request.groupId);
    if (group.members.size > 0 && group.protocolType !== request.protocolType) {
      return Promise.resolve(failedJoin(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, request.memberId));
    }
    let member = group.members.get(request.memberId);
    if (request.memberId !== '' && !member) {
      return Promise.resolve(failedJoin(ErrorCode.UNKNOWN_MEMBER_ID, request.memberId));
    }
    if (!member) {
      member = {
        id: `${request.clientId}-${randomUUID()}`,
        clientId: request.clientId,
        clientHost: request.clientHost,
        sessionTimeoutMs: request.sessionTimeoutMs,
        rebalanceTimeoutMs: request.rebalanceTimeoutMs,
        protocols: request.protocols,
        assignment: EMPTY,
        lastSeen: this.now(),
      };
      group.members.set(member.id, member);
    }
    Object.assign(member, {
      sessionTimeoutMs: request.sessionTimeoutMs,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs,
      protocols: request.protocols,
      lastSeen: this.now(),
    });
    group.protocolType = request.protocolType;
    const joined = new Promise<JoinResult>((resolve) => {
      member.pendingJoin = resolve;
    });
    if (group.state !== 'PreparingRebalance') this.prepareRebalance(group);
    this.completeJoinIfAllRejoined(group);
    return joined;
  }

  sync(
    groupId: string,
    generationId: number,
    memberId: string,
    assignments: Map<string, Buffer>,
  ): Promise<SyncResult> {
    const group = this.groups.get(groupId);
    const member = group?.members.get(memberId);
    if (!group || !member)
      return Promise.resolve({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID, assignment: EMPTY });
    member.lastSeen = this.now();
    if (generationId !== group.generationId) {
      return Promise.resolve({ errorCode: ErrorCode.ILLEGAL_GENERATION, assignment: EMPTY });
    }
    if (group.state === 'PreparingRebalance') {
      return Promise.resolve({ errorCode: ErrorCode.REBALANCE_IN_PROGRESS, assignment: EMPTY });
    }
    if (group.state === 'Stable')
      return Promise.resolve({ errorCode: ErrorCode.NONE, assignment: member.assignment });
    const synced = new Promise<SyncResult>((resolve) => {
      member.pendingSync = resolve;
    });
    if (memberId === group.leaderId) {
      for (const each of group.members.values()) each.assignment = assignments.get(each.id) ?? EMPTY;
      group.state = 'Stable';
      for (const each of group.members.values()) {
        each.pendingSync?.({ errorCode: ErrorCode.NONE, assignment: each.assignment });
        delete each.pendingSync;
      }
    }
    return synced;
  }

  heartbeat(groupId: string, generationId: number, memberId: string): number {
    const group = this.groups.get(groupId);
    const member = group?.members.get(memberId);
    if (!group || !member) return ErrorCode.UNKNOWN_MEMBER_ID;
    member.lastSeen = this.now();
    if (group.state === 'PreparingRebalance') return ErrorCode.REBALANCE_IN_PROGRESS;
    if (generationId !== group.generationId) return ErrorCode.ILLEGAL_GENERATION;
    return ErrorCode.NONE;
  }

  leave(groupId: string, memberId: string): number {
    const group = this.groups.get(groupId);
    if (!group?.members.has(memberId)) return ErrorCode.UNKNOWN_MEMBER_ID;
    this.removeMember(group, memberId);
    return ErrorCode.NONE;
  }

  /** Error code for a commit; a generation of -1 with no member id is a commit by a tool outside the group. */
  commit(
    groupId: string,
    generationId: number,
    memberId: string,
    offsets: { topic: string; partition: number; offset: number; metadata: string | null }[],
  ): number {
    const group = this.group(groupId);
    const member = group.members.get(memberId);
    if (generationId < 0 && memberId === '') {
      if (group.members.size > 0) return ErrorCode.UNKNOWN_MEMBER_ID;
    } else {
      if (!member) return ErrorCode.UNKNOWN_MEMBER_ID;
      member.lastSeen = this.now();
      if (generationId !== group.generationId) return ErrorCode.ILLEGAL_GENERATION;
      if (group.state === 'CompletingRebalance') return ErrorCode.REBALANCE_IN_PROGRESS;
    }
    for (const { topic, partition, offset, metadata } of offsets) {
      const partitions = group.offsets.get(topic) ?? new Map<number, CommittedOffset>();
      group.offsets.set(topic, partitions);
      partitions.set(partition, { offset, metadata });
    }
    return ErrorCode.NONE;
  }

  committed(groupId: string, topic: string, partition: number): CommittedOffset | undefined {
    return this.groups.get(groupId)?.offsets.get(topic)?.get(partition);
  }

  describe(groupId: string): GroupDescription {
    const group = this.groups.get(groupId);
    if (!group) return { state: 'Dead', protocolType: '', protocolName: '', members: [] };
    return {
      state: group.state,
      protocolType: group.protocolType,
      protocolName: group.state === 'Stable' ? group.protocolName : '',
      members: [...group.members.values()].map((m) => ({
        memberId: m.id,
        clientId: m.clientId,
        clientHost: m.clientHost,
        metadata: m.protocols.find((p) => p.name === group.protocolName)?.metadata ?? EMPTY,
        assignment: m.assignment,
      })),
    };
  }

  stop(): void {
    clearInterval(this.sweeper);
    for (const group of this.groups.values()) clearTimeout(group.rebalanceTimer);
  }

  private group(groupId: string): Group {
    let group = this.groups.get(groupId);
    if (!group) {
      group = {
        id: groupId,
        state: 'Empty',
        generationId: 0,
        protocolType: '',
        protocolName: '',
        leaderId: '',
        members: new Map(),
        offsets: new Map(),
      };
      this.groups.set(groupId, group);
    }
    return group;
  }

  /** Every member must rejoin; those that do not within the rebalance timeout are dropped. */
  private prepareRebalance(group: Group): void {
    group.state = 'PreparingRebalance';
    for (const member of group.members.values()) {
      member.pendingSync?.({ errorCode: ErrorCode.REBALANCE_IN_PROGRESS, assignment: EMPTY });
      delete member.pendingSync;
    }
    const timeout = Math.max(...[...group.members.values()].map((m) => m.rebalanceTimeoutMs));
    clearTimeout(group.rebalanceTimer);
    group.rebalanceTimer = setTimeout(() => {
      for (const member of [...group.members.values()]) {
        if (!member.pendingJoin) group.members.delete(member.id);
      }
      this.completeJoinIfAllRejoined(group);
    }, timeout);
    group.rebalanceTimer.unref();
  }

  private completeJoinIfAllRejoined(group: Group): void {
    if (group.state !== 'PreparingRebalance') return;
    const members = [...group.members.values()];
    if (!members.every((m) => m.pendingJoin)) return;
    clearTimeout(group.rebalanceTimer);
    if (members.length === 0) {
      group.state = 'Empty';
      return;
    }
    group.generationId++;
    group.state = 'CompletingRebalance';
    if (!group.members.has(group.leaderId)) group.leaderId = members[0]!.id;
    const leader = group.members.get(group.leaderId)!;
    const protocol = leader.protocols.find((p) =>
      members.every((m) => m.protocols.some((q) => q.name === p.name)),
    );
    group.protocolName = protocol?.name ?? '';
    for (const member of members) {
      const isLeader = member.id === group.leaderId;
      member.pendingJoin!({
        errorCode: protocol ? ErrorCode.NONE : ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
        generationId: group.generationId,
        protocolName: group.protocolName,
        leaderId: group.leaderId,
        memberId: member.id,
        members: isLeader
          ? members.map((m) => ({
              memberId: m.id,
              metadata: m.protocols.find((p) => p.name === group.protocolName)?.metadata ?? EMPTY,
            }))
          : [],
      });
      delete member.pendingJoin;
      member.lastSeen = this.now();
    }
  }

  private removeMember(group: Group, memberId: string): void {
    group.members.delete(memberId);
    if (group.members.size === 0) {
      clearTimeout(group.rebalanceTimer);
      group.state = 'Empty';
      group.leaderId = '';
      return;
    }
    if (group.state === 'PreparingRebalance') this.completeJoinIfAllRejoined(group);
    else this.prepareRebalance(group);
  }

  /** Drops members whose session timed out without a heartbeat (run every 100 ms; public for tests). */
  expireSilentMembers(): void {
    const now = this.now();
    for (const group of this.groups.values()) {
      for (const member of [...group.members.values()]) {
        const waiting = member.pendingJoin !== undefined || member.pendingSync !== undefined;
        if (!waiting && now - member.lastSeen > member.sessionTimeoutMs) this.removeMember(group, member.id);
      }
    }
  }
}

function failedJoin(errorCode: number, memberId: string): JoinResult {
  return { errorCode, generationId: -1, protocolName: '', leaderId: '', memberId, members: [] };
}
