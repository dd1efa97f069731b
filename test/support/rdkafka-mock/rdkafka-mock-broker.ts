import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = path.join(here, 'mock-broker.c');
/** Built per checkout into the git-ignored .tmp/, never committed. */
const BINARY = path.resolve(here, '../../../.tmp/rdkafka-mock/mock-broker');

export type MockBrokerBuild = { binary: string } | { unavailable: string };

/**
 * Builds the mock-broker wrapper with gcc against librdkafka (Debian `librdkafka-dev`), unless the binary is
 * newer than its source. Says why when it cannot: the tests against the mock then do not run.
 */
export async function buildMockBroker(): Promise<MockBrokerBuild> {
  const [source, binary] = await Promise.all([stat(SOURCE), stat(BINARY).catch(() => undefined)]);
  if (binary !== undefined && binary.mtimeMs >= source.mtimeMs) return { binary: BINARY };
  await mkdir(path.dirname(BINARY), { recursive: true });
  try {
    await run('gcc', ['-O2', '-Wall', '-o', BINARY, SOURCE, '-lrdkafka']);
  } catch (error) {
    const { code, stderr } = error as NodeJS.ErrnoException & { stderr?: string };
    if (code === 'ENOENT') return { unavailable: 'gcc is not installed' };
    const firstError = stderr?.split('\n').find((line) => line.includes('error')) ?? String(error);
    return { unavailable: `the librdkafka mock broker does not build (needs librdkafka-dev): ${firstError}` };
  }
  return { binary: BINARY };
}

/**
 * librdkafka's mock cluster, one broker on loopback, in a child process (test/support/rdkafka-mock/mock-broker.c):
 * a Kafka implementation independent of kafkajs and of our in-process test broker.
 */
export class RdkafkaMockBroker {
  private readonly replies: { resolve(line: string): void; reject(error: Error): void }[] = [];

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: Interface,
    /** `host:port`, as KAFKA_BROKERS takes it. */
    readonly address: string,
  ) {
    lines.on('line', (line) => this.replies.shift()?.resolve(line));
    child.on('exit', (code, signal) => {
      for (const reply of this.replies.splice(0))
        reply.reject(new Error(`mock broker exited (${code ?? signal})`));
    });
  }

  static async start(binary: string): Promise<RdkafkaMockBroker> {
    const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    const stderr: string[] = [];
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    const lines = createInterface({ input: child.stdout });
    let failStart!: (error: Error) => void;
    const failed = new Promise<never>((_resolve, reject) => (failStart = reject));
    const exitedEarly = (code: number | null) =>
      failStart(new Error(`mock broker exited (${code}) before listening: ${stderr.join('').trim()}`));
    child.once('exit', exitedEarly).once('error', failStart);
    try {
      const [bootstrap] = (await Promise.race([once(lines, 'line'), failed])) as [string];
      return new RdkafkaMockBroker(child, lines, bootstrap);
    } finally {
      child.off('exit', exitedEarly).off('error', failStart);
    }
  }

  /**
   * Creates a topic through the mock's own API: the mock serves no CreateTopics request. Resolves to false when
   * the topic already exists, as kafkajs's admin.createTopics does.
   */
  async createTopic(topic: string, partitions: number): Promise<boolean> {
    if (this.child.exitCode !== null) throw new Error('mock broker has exited');
    const reply = new Promise<string>((resolve, reject) => this.replies.push({ resolve, reject }));
    this.child.stdin.write(`create-topic ${topic} ${partitions}\n`);
    const answer = await reply;
    if (answer === 'ok') return true;
    if (answer === 'error TOPIC_ALREADY_EXISTS') return false;
    throw new Error(`mock broker: create-topic ${topic} ${partitions}: ${answer}`);
  }

  /** Closes the wrapper's stdin, which destroys the cluster and ends the process. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = once(this.child, 'exit');
      this.child.stdin.end();
      await exited;
    }
    this.lines.close();
  }
}
