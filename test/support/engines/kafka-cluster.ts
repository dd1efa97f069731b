import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { exitOf, freePorts, spawnOn, THIS_MACHINE, type Placement } from '../processes.ts';
import { KAFKA_LIB } from './engines.ts';

/**
 * A real Apache Kafka cluster in KRaft mode on 127.0.0.1 (or each node where its placement says, listening on
 * and advertising that address), from the jars deploy/engines/install.sh installed:
 * `nodes` processes (3 by default), each broker and controller at once, with replication factor 3 and
 * min.insync.replicas 2 as an operator would configure them (docs/event-log.md). Its files live in one
 * temporary folder (`dir`: node-N/data, node-N/server.log, node-N/server.properties), removed by `stop`.
 */
export interface KafkaCluster {
  /** host:port of every broker, comma-separated, as KAFKA_BROKERS takes them. */
  bootstrap: string;
  /** The same, one per node, in node id order (node ids are 1…nodes). */
  brokers: string[];
  dir: string;
  /** SIGKILL, as a machine dying: no controlled shutdown, nothing flushed. Resolves once it has exited. */
  kill(nodeId: number): Promise<void>;
  /** Starts a killed node again on its own data and ports; resolves once it answers metadata requests. */
  restart(nodeId: number): Promise<void>;
  /** Kills every node and removes the folder. */
  stop(): Promise<void>;
  /** The node that coordinates `groupId` now: the leader of its partition of __consumer_offsets. */
  coordinatorOf(groupId: string): Promise<number>;
  /** The process id of each node's JVM that is running, in node id order (a bench reads their CPU). */
  pids(): number[];
}

/** Java's String.hashCode, by which Kafka places a group on a partition of __consumer_offsets. */
function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
  return hash;
}

const OFFSETS_PARTITIONS = 10;

/** The JVM's options for each node: three of them share two cores and a CI machine. */
const JVM_OPTIONS = ['-Xms128m', '-Xmx384m'];

/** A Kafka Uuid (16 random bytes, URL-safe base64 without padding), the cluster's id; not starting with '-'. */
function kafkaUuid(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

const log4jConfig = (file: string) => `<?xml version="1.0" encoding="UTF-8"?>
<Configuration>
  <Appenders>
    <File name="file" fileName="${file}"><PatternLayout pattern="[%d] %p %m (%c)%n"/></File>
  </Appenders>
  <Loggers>
    <Root level="INFO"><AppenderRef ref="file"/></Root>
    <Logger name="kafka.request.logger" level="WARN"/>
  </Loggers>
</Configuration>
`;

function nodeProperties(
  nodeId: number,
  dir: string,
  ports: { address: string; broker: number; controller: number }[],
): string {
  const own = ports[nodeId - 1]!;
  const settings: Record<string, string | number> = {
    'process.roles': 'broker,controller',
    'node.id': nodeId,
    'controller.quorum.voters': ports.map((p, i) => `${i + 1}@${p.address}:${p.controller}`).join(','),
    listeners: `PLAINTEXT://${own.address}:${own.broker},CONTROLLER://${own.address}:${own.controller}`,
    'advertised.listeners': `PLAINTEXT://${own.address}:${own.broker}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': path.join(dir, 'data'),
    // As docs/event-log.md asks of a production cluster: every partition on three brokers, a write
    // acknowledged (acks all) once two hold it, and topics created by the client, never by a fetch.
    'default.replication.factor': Math.min(3, ports.length),
    'min.insync.replicas': Math.min(2, ports.length),
    'offsets.topic.replication.factor': Math.min(3, ports.length),
    'transaction.state.log.replication.factor': Math.min(3, ports.length),
    'transaction.state.log.min.isr': Math.min(2, ports.length),
    'auto.create.topics.enable': 'false',
    'unclean.leader.election.enable': 'false',
    // Test settings: a group's first member starts at once, and the offsets topic (50 partitions by default)
    // is small, so a cluster is ready in seconds on two cores.
    'group.initial.rebalance.delay.ms': 0,
    'offsets.topic.num.partitions': OFFSETS_PARTITIONS,
  };
  return Object.entries(settings)
    .map(([key, value]) => `${key}=${value}\n`)
    .join('');
}

/** `java … <main> <args>` on the broker's classpath, where `placement` says; its output goes to `logFile`. */
function java(
  placement: Placement,
  main: string,
  args: string[],
  logFile: string,
  log4jFile: string,
): ChildProcess {
  const child = spawnOn(
    placement,
    'java',
    [
      ...JVM_OPTIONS,
      `-Dlog4j2.configurationFile=${log4jFile}`,
      '-cp',
      path.join(KAFKA_LIB, '*'),
      main,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out = createWriteStream(logFile, { flags: 'a' });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  return child;
}

/** Resolves once the broker at `address` answers a metadata request naming `expectBrokers` brokers. */
async function answersMetadata(
  address: string,
  expectBrokers: number,
  child: ChildProcess,
  logFile: string,
  timeoutMs = 90_000,
): Promise<void> {
  const kafka = new Kafka({
    clientId: 'kafka-cluster-ready',
    brokers: [address],
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 1000,
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = (await readFile(logFile, 'utf8').catch(() => '')).slice(-3000);
      throw new Error(`Kafka node at ${address} exited (${child.exitCode ?? child.signalCode}):\n${tail}`);
    }
    const admin = kafka.admin();
    try {
      await admin.connect();
      const { brokers } = await admin.describeCluster();
      if (brokers.length >= expectBrokers) return;
    } catch {
      // not listening yet, or the quorum has not elected a controller
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error(`Kafka node at ${address} not ready in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Formats and starts a cluster of `nodes` KRaft nodes (static quorum: every node a voter) and resolves once
 * every broker answers metadata requests naming all of them. `placements` (one per node, as many nodes)
 * puts each node on a host of its own; by default every node runs here on 127.0.0.1.
 */
export async function startKafkaCluster({
  placements,
  nodes = placements?.length ?? 3,
}: { nodes?: number; placements?: readonly Placement[] } = {}): Promise<KafkaCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kafka-cluster-'));
  const free = await freePorts(2 * nodes);
  const placementOf = (id: number) => placements?.[id - 1] ?? THIS_MACHINE;
  const ports = Array.from({ length: nodes }, (_, i) => ({
    address: placementOf(i + 1).address,
    broker: free[2 * i]!,
    controller: free[2 * i + 1]!,
  }));
  const clusterId = kafkaUuid();
  const ids = ports.map((_, i) => i + 1);
  const nodeDir = (id: number) => path.join(dir, `node-${id}`);
  const file = (id: number, name: string) => path.join(nodeDir(id), name);
  await Promise.all(
    ids.map(async (id) => {
      await mkdir(nodeDir(id), { recursive: true });
      await writeFile(file(id, 'server.properties'), nodeProperties(id, nodeDir(id), ports));
      await writeFile(file(id, 'log4j2.xml'), log4jConfig(file(id, 'server.log')));
    }),
  );
  const processes = new Map<number, ChildProcess>();
  const brokers = ports.map((p) => `${p.address}:${p.broker}`);
  const start = (id: number) => {
    const child = java(
      placementOf(id),
      'kafka.Kafka',
      [file(id, 'server.properties')],
      file(id, 'stdout.log'),
      file(id, 'log4j2.xml'),
    );
    processes.set(id, child);
    return child;
  };
  const kill = async (id: number) => {
    const child = processes.get(id);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const stop = async () => {
    await Promise.all(ids.map(kill));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(
      ids.map(async (id) => {
        const { code, output } = await exitOf(
          java(
            placementOf(id),
            'kafka.tools.StorageTool',
            ['format', '-t', clusterId, '-c', file(id, 'server.properties')],
            file(id, 'format.log'),
            file(id, 'log4j2.xml'),
          ),
        );
        if (code !== 0) throw new Error(`formatting Kafka node ${id} failed (${code}):\n${output}`);
      }),
    );
    const started = ids.map(start);
    await Promise.all(
      ids.map((id) => answersMetadata(brokers[id - 1]!, nodes, started[id - 1]!, file(id, 'server.log'))),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    bootstrap: brokers.join(','),
    brokers,
    dir,
    kill,
    restart: async (id) => {
      await kill(id);
      await answersMetadata(brokers[id - 1]!, 1, start(id), file(id, 'server.log'));
    },
    stop,
    pids: () =>
      ids
        .map((id) => processes.get(id)!)
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map((child) => child.pid!),
    coordinatorOf: async (groupId) => {
      const kafka = new Kafka({ clientId: 'kafka-cluster', brokers, logLevel: logLevel.NOTHING });
      const admin = kafka.admin();
      await admin.connect();
      try {
        // A new cluster creates __consumer_offsets on the first FindCoordinator request: describeGroups sends one
        // and waits until a coordinator answers.
        const { topics } = await admin
          .fetchTopicMetadata({ topics: ['__consumer_offsets'] })
          .catch(async () => {
            await admin.describeGroups([groupId]);
            return admin.fetchTopicMetadata({ topics: ['__consumer_offsets'] });
          });
        const partition = (javaStringHash(groupId) & 0x7fffffff) % OFFSETS_PARTITIONS;
        return topics[0]!.partitions.find((p) => p.partitionId === partition)!.leader;
      } finally {
        await admin.disconnect();
      }
    },
  };
}
