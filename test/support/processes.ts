import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The project's own programs as child processes, for the benches and the deployment specs alike: the
 * pipeline, the compiled server, a TypeScript entry point, and waiting for one to answer or stop.
 */

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Where a helper runs a server: the address it binds and advertises, and the words its command is prefixed
 * with (`ip netns exec <namespace>` for a host of a lab, test/support/deployment/netns-hosts.ts).
 */
export interface Placement {
  address: string;
  spawnPrefix: readonly string[];
}

/** The default placement: this machine's loopback, the command as it is. */
export const THIS_MACHINE: Placement = { address: '127.0.0.1', spawnPrefix: [] };

/** Spawns `command` where `placement` says (its prefix in front). */
export function spawnOn(
  placement: Placement,
  command: string,
  args: readonly string[],
  options: SpawnOptions,
): ChildProcess {
  const [file, ...rest] = [...placement.spawnPrefix, command, ...args];
  return spawn(file!, rest, options);
}

/** A TCP port on 127.0.0.1 that nothing listens on now (the system's pick). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * `count` distinct free ports, held open together while they are picked: ports taken one after the other can
 * come back the same (the system hands out a port closed a moment ago again).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

/** Runs a TypeScript entry point with tsx in a child process (node itself, so the pid is the program's). */
export function runTs(
  entry: string,
  env: Record<string, string>,
  stdio: 'ignore' | 'pipe' = 'pipe',
  args: readonly string[] = [],
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', ...env },
    stdio: ['ignore', stdio, stdio],
  });
}

/** Runs the pipeline (pipeline/cli/pipeline.ts) to a published snapshot; its output is the error if it fails. */
export async function runPipeline(env: Record<string, string>): Promise<void> {
  const { code, output } = await exitOf(runTs('pipeline/cli/pipeline.ts', env));
  if (code !== 0) throw new Error(`pipeline failed (${code}):\n${output}`);
}

/** How a child process ended: its exit code and everything it wrote (when its output is piped). */
export async function exitOf(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

/** Stops a child process with SIGTERM and waits for it to exit (at once if it has). */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Polls a URL until it answers 200 with a JSON body that `ready` accepts, for up to `timeoutMs`. */
export async function waitFor(
  url: string,
  ready: (body: unknown) => boolean,
  child: ChildProcess,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`process exited with ${child.exitCode} before ${url} answered`);
    try {
      const res = await fetch(url);
      if (res.ok && ready(await res.json())) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs / 1000} s`);
}

const builds = new Map<string, Promise<void>>();

/**
 * Compiles the service of the checkout at `root` as `npm start` does (tsconfig.build.json → dist/), once
 * per bench run: the server is measured as it runs for users, without tsx compiling sources in its process
 * and in each of its threads.
 */
export function buildServer(root = ROOT): Promise<void> {
  let build = builds.get(root);
  if (build === undefined) {
    build = exitOf(
      spawn(
        process.execPath,
        [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    ).then(({ code, output }) => {
      if (code !== 0) throw new Error(`tsc -p tsconfig.build.json in ${root} failed (${code}):\n${output}`);
    });
    builds.set(root, build);
  }
  return build;
}
