import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort, spawnOn, stop, THIS_MACHINE, type Placement } from '../processes.ts';
import { debianBinaryUnavailable } from './debian-binary.ts';

/** Debian's redis-server; .ci/run installs it and sets REDIS_SERVER_REQUIRED so CI cannot skip its specs. */
export const REDIS_SERVER = '/usr/bin/redis-server';

export const redisUnavailable = () =>
  debianBinaryUnavailable(REDIS_SERVER, 'redis-server', 'REDIS_SERVER_REQUIRED', 'specs needing Redis');

/**
 * A throwaway redis-server on a free port of `placement`'s address (loopback by default): no persistence,
 * stopped by `stop`.
 */
export class RedisServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly address: string,
  ) {}

  get url(): string {
    return `redis://${this.address}:${this.port}`;
  }

  static async start(port?: number, placement: Placement = THIS_MACHINE): Promise<RedisServer> {
    const chosen = port ?? (await freePort());
    const { address } = placement;
    const child = spawnOn(
      placement,
      REDIS_SERVER,
      [
        ...['--port', String(chosen), '--bind', address, '--save', '', '--appendonly', 'no'],
        // Without a password Redis answers only loopback clients (protected mode); a lab host's clients are
        // on other hosts of a private network of the spec's own.
        ...(address === THIS_MACHINE.address ? [] : ['--protected-mode', 'no']),
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(address, chosen))) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`redis-server on port ${chosen} did not answer within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const server = new RedisServer(child, chosen, address);
    return server;
  }

  /** SIGKILL at once, for a process exiting without the chance to stop it properly. */
  kill(): void {
    this.child.kill('SIGKILL');
  }

  stop(): Promise<void> {
    return stop(this.child);
  }
}

/** Whether a Redis server answers PING at address:port (an inline command: no client library needed). */
function answersPing(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, address);
    socket.setTimeout(1000);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    for (const failure of ['error', 'timeout'] as const)
      socket.once(failure, () => {
        socket.destroy();
        resolve(false);
      });
  });
}
