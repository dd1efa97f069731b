import { EventEmitter } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { API_VERSIONS, apis, unsupportedApiVersionsResponse, type BrokerState } from './api-handlers.ts';
import { GroupCoordinator } from './group-coordinator.ts';
import { WireReader } from './wire-reader.ts';
import { WireWriter } from './wire-writer.ts';

/**
 * A single-node Kafka broker for tests, in process, on 127.0.0.1 and a random port. It speaks the real
 * wire protocol (the non-flexible API versions kafkajs negotiates) and keeps everything in memory.
 */
export class KafkaTestBroker {
  /** Requests the broker could not serve (unknown API or version, malformed body); empty in a good run. */
  readonly protocolErrors: string[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly state: BrokerState,
  ) {}

  static async start(): Promise<KafkaTestBroker> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('broker: no TCP address');
    const appends = new EventEmitter();
    appends.setMaxListeners(0);
    const broker = new KafkaTestBroker(server, {
      nodeId: 0,
      host: '127.0.0.1',
      port: address.port,
      topics: new Map(),
      coordinator: new GroupCoordinator(),
      appends,
      nextProducerId: 1000,
    });
    server.on('connection', (socket) => broker.serve(socket));
    return broker;
  }

  /** `host:port`, as KAFKA_BROKERS takes it. */
  get address(): string {
    return `${this.state.host}:${this.state.port}`;
  }

  async stop(): Promise<void> {
    this.state.coordinator.stop();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    // Kafka answers the requests of one connection in order; a chain keeps a long-polling fetch in line.
    let chain = Promise.resolve();
    socket.on('data', (data) => {
      pending = pending.length === 0 ? data : Buffer.concat([pending, data]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const message = pending.subarray(4, 4 + pending.readInt32BE(0));
        pending = pending.subarray(4 + message.length);
        chain = chain.then(() => this.answer(socket, message));
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  private async answer(socket: Socket, message: Buffer): Promise<void> {
    let response: Buffer | undefined;
    try {
      response = await this.respond(message, socket.remoteAddress ?? '');
    } catch (error) {
      // A request the broker cannot serve ends the connection, as a real broker does; the test sees it listed.
      this.protocolErrors.push((error as Error).message);
      socket.destroy();
      return;
    }
    if (response !== undefined && !socket.destroyed) socket.write(response);
  }

  /** The framed response to one request, or undefined when the protocol sends none. */
  private async respond(message: Buffer, clientHost: string): Promise<Buffer | undefined> {
    const request = new WireReader(message);
    const apiKey = request.int16();
    const version = request.int16();
    const correlationId = request.int32();
    const clientId = request.nullableString() ?? '';
    const api = apis.get(apiKey);
    let body: Buffer | undefined;
    if (api && version >= api.minVersion && version <= api.maxVersion) {
      body = await api.handle(request, this.state, { version, clientId, clientHost });
    } else if (apiKey === API_VERSIONS) {
      body = unsupportedApiVersionsResponse();
    } else {
      throw new Error(`${clientId}: unsupported API ${api?.name ?? apiKey} v${version}`);
    }
    if (body === undefined) return undefined;
    return Buffer.concat([
      new WireWriter()
        .int32(4 + body.length)
        .int32(correlationId)
        .toBuffer(),
      body,
    ]);
  }
}
