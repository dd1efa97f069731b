import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to a server, on a port of its own, that a spec can cut and restore: the server stays up while
 * the clients behind the relay lose it (a network partition between two hosts, on one machine).
 */
export class TcpRelay {
  private readonly sockets = new Set<Socket>();
  private cut = false;
  private readonly server: Server;

  private constructor(target: { host: string; port: number }) {
    this.server = createServer((client) => {
      if (this.cut) return void client.destroy();
      const upstream = connect(target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
  }

  static async start(target: { host: string; port: number }): Promise<TcpRelay> {
    const relay = new TcpRelay(target);
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    return relay;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('the relay is not listening');
    return address.port;
  }

  /** Drops every connection and refuses new ones until `restore`. */
  cutOff(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cut = false;
  }

  async stop(): Promise<void> {
    this.cutOff();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
