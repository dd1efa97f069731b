import { once, type EventEmitter } from 'node:events';
import { ErrorCode } from './error-codes.ts';
import type { GroupCoordinator } from './group-coordinator.ts';
import { CorruptRecordSetError, PartitionLog } from './partition-log.ts';
import type { WireReader } from './wire-reader.ts';
import { WireWriter } from './wire-writer.ts';

/** What the handlers share: the one broker's address, its topics and its group coordinator. */
export interface BrokerState {
  nodeId: number;
  host: string;
  port: number;
  topics: Map<string, PartitionLog[]>;
  coordinator: GroupCoordinator;
  /** Emits 'append' after every produce, waking long-polling fetches. */
  appends: EventEmitter;
  nextProducerId: number;
}

export interface RequestContext {
  version: number;
  clientId: string;
  clientHost: string;
}

/** A response body, or undefined when the protocol sends none (a produce with acks=0). */
type Handler = (
  request: WireReader,
  state: BrokerState,
  context: RequestContext,
) => Promise<Buffer | undefined>;

interface Api {
  name: string;
  minVersion: number;
  maxVersion: number;
  handle: Handler;
}

const API_VERSIONS = 18;

/** Kafka's answer to "all topics" in Metadata v1 is a null list; kafkajs's listTopics sends an empty one. */
const metadata: Handler = async (request, state) => {
  const requested = request.nullableArray((r) => r.string());
  const names = requested === null || requested.length === 0 ? [...state.topics.keys()] : requested;
  return new WireWriter()
    .array([state], (w, b) => w.int32(b.nodeId).string(b.host).int32(b.port).nullableString(null))
    .int32(state.nodeId)
    .array(names, (w, name) => {
      const partitions = state.topics.get(name);
      w.int16(partitions ? ErrorCode.NONE : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        .string(name)
        .boolean(false)
        .array([...(partitions ?? []).keys()], (pw, index) => {
          pw.int16(ErrorCode.NONE).int32(index).int32(state.nodeId);
          pw.array([state.nodeId], (rw, id) => rw.int32(id)).array([state.nodeId], (iw, id) => iw.int32(id));
        });
    })
    .toBuffer();
};

const createTopics: Handler = async (request, state) => {
  const topics = request.array((r) => {
    const topic = { name: r.string(), partitions: r.int32(), replicationFactor: r.int16() };
    r.array((a) => [a.int32(), a.array((b) => b.int32())]);
    r.array((c) => [c.string(), c.nullableString()]);
    return topic;
  });
  request.int32(); // timeout
  const validateOnly = request.boolean();
  return new WireWriter()
    .array(topics, (w, { name, partitions }) => {
      let errorCode: number = ErrorCode.NONE;
      let message: string | null = null;
      if (state.topics.has(name)) {
        errorCode = ErrorCode.TOPIC_ALREADY_EXISTS;
        message = `Topic '${name}' already exists.`;
      } else if (partitions < 1) {
        errorCode = ErrorCode.INVALID_PARTITIONS;
        message = 'Number of partitions must be larger than 0.';
      } else if (!validateOnly) {
        state.topics.set(
          name,
          Array.from({ length: partitions }, () => new PartitionLog()),
        );
      }
      w.string(name).int16(errorCode).nullableString(message);
    })
    .toBuffer();
};

const produce: Handler = async (request, state) => {
  request.nullableString(); // transactional id
  const acks = request.int16();
  request.int32(); // timeout
  const topics = request.array((r) => ({
    name: r.string(),
    partitions: r.array((p) => ({ index: p.int32(), records: p.nullableBytes() })),
  }));
  const responses = topics.map(({ name, partitions }) => ({
    name,
    partitions: partitions.map(({ index, records }) => {
      const log = state.topics.get(name)?.[index];
      if (!log) return { index, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, baseOffset: -1 };
      try {
        return { index, errorCode: ErrorCode.NONE, baseOffset: log.append(records ?? Buffer.alloc(0)) };
      } catch (error) {
        if (!(error instanceof CorruptRecordSetError)) throw error;
        return { index, errorCode: ErrorCode.CORRUPT_MESSAGE, baseOffset: -1 };
      }
    }),
  }));
  state.appends.emit('append');
  if (acks === 0) return undefined;
  return new WireWriter()
    .array(responses, (w, { name, partitions }) => {
      w.string(name).array(partitions, (pw, p) =>
        pw.int32(p.index).int16(p.errorCode).int64(p.baseOffset).int64(-1),
      );
    })
    .int32(0)
    .toBuffer();
};

/** Long-polls: answers at once when any requested partition has data, else when data arrives or maxWait ends. */
const fetch: Handler = async (request, state) => {
  request.int32(); // replica id
  const maxWaitMs = request.int32();
  const minBytes = request.int32();
  const maxBytes = request.int32();
  request.int8(); // isolation level: every stored record is committed, so both levels read the same
  const topics = request.array((r) => ({
    name: r.string(),
    partitions: r.array((p) => ({ index: p.int32(), fetchOffset: p.int64(), maxBytes: p.int32() })),
  }));
  const read = () => {
    let budget = maxBytes;
    let total = 0;
    const result = topics.map(({ name, partitions }) => ({
      name,
      partitions: partitions.map(({ index, fetchOffset, maxBytes: partitionMax }) => {
        const log = state.topics.get(name)?.[index];
        if (!log)
          return { index, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, highWatermark: -1, records: null };
        if (fetchOffset < 0 || fetchOffset > log.highWatermark) {
          return {
            index,
            errorCode: ErrorCode.OFFSET_OUT_OF_RANGE,
            highWatermark: log.highWatermark,
            records: null,
          };
        }
        const records = budget > 0 ? log.read(fetchOffset, Math.min(partitionMax, budget)) : Buffer.alloc(0);
        budget -= records.length;
        total += records.length;
        return { index, errorCode: ErrorCode.NONE, highWatermark: log.highWatermark, records };
      }),
    }));
    return { result, total };
  };
  const deadline = Date.now() + maxWaitMs;
  let { result, total } = read();
  while (total < Math.max(minBytes, 1) && Date.now() < deadline) {
    await waitForAppend(state.appends, deadline - Date.now());
    ({ result, total } = read());
  }
  return new WireWriter()
    .int32(0)
    .array(result, (w, { name, partitions }) => {
      w.string(name).array(partitions, (pw, p) => {
        pw.int32(p.index).int16(p.errorCode).int64(p.highWatermark).int64(p.highWatermark);
        pw.array([], () => undefined).nullableBytes(p.records);
      });
    })
    .toBuffer();
};

async function waitForAppend(appends: EventEmitter, timeoutMs: number): Promise<void> {
  const timeout = AbortSignal.timeout(Math.max(timeoutMs, 1));
  await once(appends, 'append', { signal: timeout }).catch(() => undefined);
}

const EARLIEST = -2;
const LATEST = -1;

const listOffsets: Handler = async (request, state) => {
  request.int32(); // replica id
  const topics = request.array((r) => ({
    name: r.string(),
    partitions: r.array((p) => ({ index: p.int32(), timestamp: p.int64() })),
  }));
  return new WireWriter()
    .array(topics, (w, { name, partitions }) => {
      w.string(name).array(partitions, (pw, { index, timestamp }) => {
        const log = state.topics.get(name)?.[index];
        if (!log) pw.int32(index).int16(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION).int64(-1).int64(-1);
        else if (timestamp === EARLIEST) pw.int32(index).int16(ErrorCode.NONE).int64(-1).int64(0);
        else if (timestamp === LATEST)
          pw.int32(index).int16(ErrorCode.NONE).int64(-1).int64(log.highWatermark);
        // Lookup by timestamp would need the batches decoded; the event log never asks for it.
        else pw.int32(index).int16(ErrorCode.INVALID_REQUEST).int64(-1).int64(-1);
      });
    })
    .toBuffer();
};

const findCoordinator: Handler = async (request, state) => {
  request.string(); // group id: this broker coordinates every group
  request.int8(); // coordinator type
  return new WireWriter()
    .int32(0)
    .int16(ErrorCode.NONE)
    .nullableString(null)
    .int32(state.nodeId)
    .string(state.host)
    .int32(state.port)
    .toBuffer();
};

const joinGroup: Handler = async (request, state, context) => {
  const result = await state.coordinator.join({
    groupId: request.string(),
    sessionTimeoutMs: request.int32(),
    rebalanceTimeoutMs: request.int32(),
    memberId: request.string(),
    protocolType: request.string(),
    protocols: request.array((r) => ({ name: r.string(), metadata: Buffer.from(r.bytes()) })),
    clientId: context.clientId,
    clientHost: context.clientHost,
  });
  return new WireWriter()
    .int32(0)
    .int16(result.errorCode)
    .int32(result.generationId)
    .string(result.protocolName)
    .string(result.leaderId)
    .string(result.memberId)
    .array(result.members, (w, m) => w.string(m.memberId).bytes(m.metadata))
    .toBuffer();
};

const syncGroup: Handler = async (request, state) => {
  const groupId = request.string();
  const generationId = request.int32();
  const memberId = request.string();
  const assignments = new Map(request.array((r) => [r.string(), Buffer.from(r.bytes())] as const));
  const result = await state.coordinator.sync(groupId, generationId, memberId, assignments);
  return new WireWriter().int32(0).int16(result.errorCode).bytes(result.assignment).toBuffer();
};

const heartbeat: Handler = async (request, state) => {
  const errorCode = state.coordinator.heartbeat(request.string(), request.int32(), request.string());
  return new WireWriter().int32(0).int16(errorCode).toBuffer();
};

const leaveGroup: Handler = async (request, state) => {
  const errorCode = state.coordinator.leave(request.string(), request.string());
  return new WireWriter().int32(0).int16(errorCode).toBuffer();
};

const offsetCommit: Handler = async (request, state) => {
  const groupId = request.string();
  const generationId = request.int32();
  const memberId = request.string();
  request.int64(); // retention time
  const topics = request.array((r) => ({
    name: r.string(),
    partitions: r.array((p) => ({ index: p.int32(), offset: p.int64(), metadata: p.nullableString() })),
  }));
  const errorCode = state.coordinator.commit(
    groupId,
    generationId,
    memberId,
    topics.flatMap(({ name, partitions }) =>
      partitions.map((p) => ({ topic: name, partition: p.index, offset: p.offset, metadata: p.metadata })),
    ),
  );
  return new WireWriter()
    .array(topics, (w, { name, partitions }) => {
      w.string(name).array(partitions, (pw, p) => pw.int32(p.index).int16(errorCode));
    })
    .toBuffer();
};

const offsetFetch: Handler = async (request, state) => {
  const groupId = request.string();
  const topics = request.array((r) => ({ name: r.string(), partitions: r.array((p) => p.int32()) }));
  return new WireWriter()
    .array(topics, (w, { name, partitions }) => {
      w.string(name).array(partitions, (pw, index) => {
        const committed = state.coordinator.committed(groupId, name, index);
        pw.int32(index)
          .int64(committed?.offset ?? -1)
          .nullableString(committed?.metadata ?? '')
          .int16(ErrorCode.NONE);
      });
    })
    .toBuffer();
};

const describeGroups: Handler = async (request, state) => {
  const groupIds = request.array((r) => r.string());
  return new WireWriter()
    .array(groupIds, (w, groupId) => {
      const group = state.coordinator.describe(groupId);
      w.int16(ErrorCode.NONE)
        .string(groupId)
        .string(group.state)
        .string(group.protocolType)
        .string(group.protocolName)
        .array(group.members, (mw, m) => {
          mw.string(m.memberId).string(m.clientId).string(m.clientHost).bytes(m.metadata).bytes(m.assignment);
        });
    })
    .toBuffer();
};

const initProducerId: Handler = async (request, state) => {
  request.nullableString(); // transactional id
  request.int32(); // transaction timeout
  return new WireWriter().int32(0).int16(ErrorCode.NONE).int64(state.nextProducerId++).int16(0).toBuffer();
};

/** The APIs and the one (non-flexible) version range of each that the test broker speaks, by API key. */
export const apis: ReadonlyMap<number, Api> = new Map<number, Api>([
  [0, { name: 'Produce', minVersion: 3, maxVersion: 3, handle: produce }],
  [1, { name: 'Fetch', minVersion: 4, maxVersion: 4, handle: fetch }],
  [2, { name: 'ListOffsets', minVersion: 1, maxVersion: 1, handle: listOffsets }],
  [3, { name: 'Metadata', minVersion: 1, maxVersion: 1, handle: metadata }],
  [8, { name: 'OffsetCommit', minVersion: 2, maxVersion: 2, handle: offsetCommit }],
  [9, { name: 'OffsetFetch', minVersion: 1, maxVersion: 1, handle: offsetFetch }],
  [10, { name: 'FindCoordinator', minVersion: 1, maxVersion: 1, handle: findCoordinator }],
  [11, { name: 'JoinGroup', minVersion: 2, maxVersion: 2, handle: joinGroup }],
  [12, { name: 'Heartbeat', minVersion: 1, maxVersion: 1, handle: heartbeat }],
  [13, { name: 'LeaveGroup', minVersion: 1, maxVersion: 1, handle: leaveGroup }],
  [14, { name: 'SyncGroup', minVersion: 1, maxVersion: 1, handle: syncGroup }],
  [15, { name: 'DescribeGroups', minVersion: 0, maxVersion: 0, handle: describeGroups }],
  [API_VERSIONS, { name: 'ApiVersions', minVersion: 0, maxVersion: 2, handle: apiVersionsHandler }],
  [19, { name: 'CreateTopics', minVersion: 1, maxVersion: 1, handle: createTopics }],
  [22, { name: 'InitProducerId', minVersion: 0, maxVersion: 0, handle: initProducerId }],
]);

/** v0 has no throttle time; v1 and v2 add it after the list. */
async function apiVersionsHandler(
  _request: WireReader,
  _state: BrokerState,
  context: RequestContext,
): Promise<Buffer> {
  const writer = new WireWriter()
    .int16(ErrorCode.NONE)
    .array([...apis], (w, [key, api]) => w.int16(key).int16(api.minVersion).int16(api.maxVersion));
  if (context.version >= 1) writer.int32(0);
  return writer.toBuffer();
}

/** The answer to an ApiVersions request of a version this broker does not speak: v0 layout, error 35. */
export function unsupportedApiVersionsResponse(): Buffer {
  return new WireWriter()
    .int16(ErrorCode.UNSUPPORTED_VERSION)
    .array([...apis], (w, [key, api]) => w.int16(key).int16(api.minVersion).int16(api.maxVersion))
    .toBuffer();
}

export { API_VERSIONS };
