import { execFileSync, spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Placement } from '../processes.ts';

/*
 * A small lab network of hosts on this machine, as network namespaces: one bridge inside a "switch"
 * namespace of its own, and per host a namespace with `lo` up and a veth to that bridge with an address of
 * 10.250.0.0/24. Every interface, address and route is made inside the lab's own namespaces, so the root
 * namespace (this machine's interfaces and routes) is never changed; each lab has its own switch, so two labs
 * using the same addresses never meet. Names carry the creating process's id and a random part, so runs side by
 * side never collide, and a lab whose process is gone (a killed run) is recognised and removed by the next.
 * Needs root and iproute2's `ip netns`.
 */

/** Every namespace of a lab is named `<PREFIX><pid>-<random>-<host>`. */
const PREFIX = 'ehlab-';
const SUBNET = '10.250.0';
const SWITCH = 'switch';
const BRIDGE = 'br0';
const IP = 'ip';

/** A host of the lab: its namespace and its address on the lab's switch. */
export interface LabHost {
  name: string;
  namespace: string;
  address: string;
}

/** What another process of the same run needs to use the lab (`NetnsLab.attach`). */
export interface LabDescription {
  switchNamespace: string;
  hosts: LabHost[];
}

const ip = (...args: string[]) => execFileSync(IP, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** The names of every network namespace (`ip netns list` prints "name (id: n)" or "name"). */
const namespaces = (): string[] =>
  ip('netns', 'list')
    .split('\n')
    .map((line) => line.split(' ')[0]!)
    .filter((name) => name !== '');

/** The processes inside a namespace, by id. */
const pidsIn = (namespace: string): number[] =>
  spawnSync(IP, ['netns', 'pids', namespace], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => /^\d+$/.test(line))
    .map(Number);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const killPid = (pid: number) => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
};

/** SIGKILLs every process inside the namespaces (by id, again while any is left), then deletes them. */
function removeNamespaces(names: readonly string[]): void {
  for (let round = 0; round < 20; round++) {
    const pids = names.flatMap(pidsIn);
    if (pids.length === 0) break;
    pids.forEach(killPid);
    // Killed processes leave their namespace once the kernel has torn them down.
    spawnSync('sleep', ['0.1']);
  }
  for (const name of names) spawnSync(IP, ['netns', 'delete', name], { stdio: 'ignore' });
}

/**
 * Removes what killed runs left: every lab namespace whose creating process is gone, with the processes still
 * in it. A lab of a run still going (this one's or another's) is left alone. Returns the names removed.
 */
export function removeLeftoverLabs(): string[] {
  const leftover = namespaces().filter((name) => {
    const pid = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1];
    return pid !== undefined && !alive(Number(pid));
  });
  removeNamespaces(leftover);
  return leftover;
}

/**
 * Why the specs needing a lab cannot run here, or undefined when they can: root and `ip netns` that can add
 * a namespace. .ci/run sets NETNS_REQUIRED, so in CI a missing capability fails those specs instead.
 */
export function netnsUnavailable(specs: string): string | undefined {
  let reason: string | undefined;
  if (process.getuid?.() !== 0) reason = 'they need root (network namespaces)';
  else {
    const probe = `${PREFIX}${process.pid}-probe`;
    const added = spawnSync(IP, ['netns', 'add', probe], { encoding: 'utf8' });
    if (added.error !== undefined || added.status !== 0)
      reason = `\`ip netns add\` failed: ${added.error?.message ?? added.stderr.trim()}`;
    else spawnSync(IP, ['netns', 'delete', probe]);
  }
  if (reason === undefined) return undefined;
  if (process.env.NETNS_REQUIRED) throw new Error(`NETNS_REQUIRED is set, but ${reason}`);
  console.log(`${specs} not run: ${reason}`);
  return reason;
}

export class NetnsLab {
  private readonly children = new Set<ChildProcess>();
  private destroyed = false;
  private readonly onExit = () => this.destroy();
  /** SIGINT or SIGTERM: the lab goes, then the signal does what it would have done without this handler. */
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.destroy();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };

  private constructor(
    readonly description: LabDescription,
    private readonly owner: boolean,
  ) {
    // A runner that gives up (a spec timeout, process.exit, a signal) skips the caller's finally: nothing
    // outlives it.
    process.once('exit', this.onExit);
    process.once('SIGINT', this.onSignal);
    process.once('SIGTERM', this.onSignal);
  }

  /**
   * Creates the switch and one host per name (addresses 10.250.0.11, .12, … in order). Leftovers of killed runs
   * are removed first. The lab is removed by `destroy`, or when this process exits.
   */
  static create(hostNames: readonly string[]): NetnsLab {
    removeLeftoverLabs();
    const run = `${PREFIX}${process.pid}-${randomBytes(3).toString('hex')}-`;
    const description: LabDescription = {
      switchNamespace: `${run}${SWITCH}`,
      hosts: hostNames.map((name, i) => ({
        name,
        namespace: `${run}${name}`,
        address: `${SUBNET}.${11 + i}`,
      })),
    };
    const lab = new NetnsLab(description, true);
    try {
      const sw = description.switchNamespace;
      ip('netns', 'add', sw);
      ip('-n', sw, 'link', 'add', BRIDGE, 'type', 'bridge');
      ip('-n', sw, 'link', 'set', BRIDGE, 'up');
      description.hosts.forEach((host, i) => {
        ip('netns', 'add', host.namespace);
        ip('-n', host.namespace, 'link', 'set', 'lo', 'up');
        // Made inside the switch's namespace, its peer moved straight into the host's: never in the root one.
        const port = `port${i}`;
        ip('-n', sw, 'link', 'add', port, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.namespace);
        ip('-n', sw, 'link', 'set', port, 'master', BRIDGE, 'up');
        ip('-n', host.namespace, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0');
        ip('-n', host.namespace, 'link', 'set', 'eth0', 'up');
      });
    } catch (error) {
      lab.destroy();
      throw error;
    }
    return lab;
  }

  /** The lab another process of this run created: this process may spawn in it and cut hosts off. */
  static attach(description: LabDescription): NetnsLab {
    return new NetnsLab(description, false);
  }

  host(name: string): LabHost {
    const host = this.description.hosts.find((h) => h.name === name);
    if (host === undefined) throw new Error(`the lab has no host ${name}`);
    return host;
  }

  /** Where the engine helpers put a server on this host (test/support/processes.ts). */
  placement(name: string): Placement {
    const host = this.host(name);
    return { address: host.address, spawnPrefix: [IP, 'netns', 'exec', host.namespace] };
  }

  /**
   * Spawns `argv` inside the host, as a process group of its own (`kill` ends the group), with exactly `env`
   * (PATH added).
   */
  exec(
    host: string,
    argv: readonly string[],
    env: Record<string, string>,
    options: Omit<SpawnOptions, 'env' | 'detached'> = {},
  ): ChildProcess {
    const child = spawn(IP, ['netns', 'exec', this.host(host).namespace, ...argv], {
      ...options,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      detached: true,
    });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** Sends `signal` to a child's process group (the program and whatever it started); resolves once it exited. */
  async kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid!, signal);
    } catch {
      child.kill(signal);
    }
    await exited;
  }

  /**
   * Cuts `host` off from `fromHosts`, as a network that lost its route between them: inside the host's
   * namespace, a `prohibit` route to each of their addresses. A connection the host opens to them is refused at
   * once (EACCES); what it sends on a connection already open, and its answers to them, go nowhere, so those
   * connections hang. Other hosts still reach it (HAProxy, a replica cut off the store and the brokers).
   */
  cutOff(host: string, fromHosts: readonly string[]): void {
    for (const from of fromHosts)
      ip('-n', this.host(host).namespace, 'route', 'add', 'prohibit', `${this.host(from).address}/32`);
  }

  /** Undoes `cutOff`. */
  restore(host: string, fromHosts: readonly string[]): void {
    for (const from of fromHosts)
      ip('-n', this.host(host).namespace, 'route', 'del', 'prohibit', `${this.host(from).address}/32`);
  }

  /**
   * SIGKILLs every process group this process spawned in the lab; the lab's creator also kills whatever else
   * runs in its namespaces and deletes them. Synchronous, so it also runs on process exit; safe to call twice.
   */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    process.off('exit', this.onExit);
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
    for (const child of this.children) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    if (this.owner)
      removeNamespaces([...this.description.hosts.map((h) => h.namespace), this.description.switchNamespace]);
  }
}
