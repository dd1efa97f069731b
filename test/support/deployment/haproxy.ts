import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { ROOT, spawnOn, stop, THIS_MACHINE, type Placement } from '../processes.ts';
import { debianBinaryUnavailable } from './debian-binary.ts';

/** Debian's haproxy; .ci/run installs it and sets HAPROXY_REQUIRED so CI cannot skip the specs that need it. */
export const HAPROXY = '/usr/sbin/haproxy';
/** The checked-in configuration: the soak runs exactly what deploy/ ships. */
export const HAPROXY_CONFIG = path.join(ROOT, 'deploy/haproxy.cfg');

/** Milliseconds of an HAProxy duration (`500ms`, `2s`, `1m`; a bare number is milliseconds). */
const durationMs = (value: string, unit: string | undefined) =>
  Number(value) * ({ ms: 1, s: 1000, m: 60_000 } as Record<string, number>)[unit ?? 'ms']!;

/**
 * The timeouts deploy/haproxy.cfg applies to a replica (connect, server, check, queue), in milliseconds:
 * a replica hung for longer than all of them has been given up on for every request and check.
 */
export async function replicaTimeoutsMs(): Promise<Record<string, number>> {
  const config = await readFile(HAPROXY_CONFIG, 'utf8');
  const timeouts: Record<string, number> = {};
  for (const [, name, value, unit] of config.matchAll(
    /^\s*timeout\s+(connect|server|check|queue)\s+(\d+)(ms|s|m)?\s*$/gm,
  ))
    timeouts[name!] = durationMs(value!, unit);
  return timeouts;
}

export const haproxyUnavailable = () =>
  debianBinaryUnavailable(HAPROXY, 'haproxy', 'HAPROXY_REQUIRED', 'specs needing HAProxy');

/** HAProxy in the foreground with deploy/haproxy.cfg, its variables set as deploy/env/haproxy.env sets them. */
export class HaproxyProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly socket: string,
  ) {}

  /**
   * `replicas`: host:port of each replica, in order (r1, r2, …). It listens on `placement`'s address
   * (loopback by default); its admin socket is a file, reached from any host.
   */
  static async start(options: {
    port: number;
    replicas: readonly string[];
    socket: string;
    placement?: Placement;
  }): Promise<HaproxyProcess> {
    const placement = options.placement ?? THIS_MACHINE;
    const env: Record<string, string> = {
      ELECTRIFY_LB_BIND: `${placement.address}:${options.port}`,
      ELECTRIFY_HAPROXY_SOCKET: options.socket,
    };
    options.replicas.forEach((address, i) => (env[`ELECTRIFY_REPLICA_${i + 1}`] = address));
    let output = '';
    const child = spawnOn(placement, HAPROXY, ['-db', '-f', HAPROXY_CONFIG], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    child.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    const proxy = new HaproxyProcess(child, `http://${placement.address}:${options.port}`, options.socket);
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${output}`);
      try {
        await proxy.command('show info');
        return proxy;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`haproxy did not start:\n${output}`, { cause: err });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** One command on the admin socket (HAProxy's runtime API); returns its answer. */
  command(line: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.socket);
      let answer = '';
      socket.on('connect', () => socket.end(`${line}\n`));
      socket.on('data', (d) => (answer += d.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  /** Each server's operational state (r1 → "UP", "DOWN", "MAINT", …), from `show stat`. */
  async serverStates(): Promise<Map<string, string>> {
    const lines = (await this.command('show stat')).trim().split('\n');
    const header = lines[0]!.replace(/^# /, '').split(',');
    const [name, server, status] = ['pxname', 'svname', 'status'].map((c) => header.indexOf(c));
    const states = new Map<string, string>();
    for (const row of lines.slice(1).map((l) => l.split(','))) {
      if (row[name!] === 'electrify' && /^r\d+$/.test(row[server!] ?? ''))
        states.set(row[server!]!, row[status!]!);
    }
    return states;
  }

  /** Takes a server out of the pool by hand (maint) or puts it back (ready), as an operator would. */
  async setServer(server: string, state: 'maint' | 'ready'): Promise<void> {
    await this.command(`set server electrify/${server} state ${state}`);
  }

  /** SIGKILL at once, for a process exiting without the chance to stop it properly. */
  kill(): void {
    this.child.kill('SIGKILL');
  }

  stop(): Promise<void> {
    return stop(this.child);
  }
}
