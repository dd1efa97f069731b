import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort, stop } from '../processes.ts';
import { debianBinaryUnavailable } from './debian-binary.ts';

/** Debian's redis-server; .ci/run installs it and sets REDIS_SERVER_REQUIRED so CI cannot skip its specs. */
export const REDIS_SERVER = '/usr/bin/redis-server';

export const redisUnavailable = () =>
  debianBinaryUnavailable(REDIS_SERVER, 'redis-server', 'REDIS_SERVER_REQUIRED', 'specs needing Redis');

/** A throwaway redis-server on a free loopback port: no persistence, stopped by `stop`. */
export class RedisServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(port?: number): Promise<RedisServer> {
    const chosen = port ?? (await freePort());
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(chosen))) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`redis-server on port ${chosen} did not answer within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const server = new RedisServer(child, chosen);
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

/** Whether a Redis server answers PING on the port (an inline command: no client library needed). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
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
