import { execFileSync, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { NetnsLab, netnsUnavailable, removeLeftoverLabs } from '../support/deployment/netns-hosts.ts';
import { ROOT } from '../support/processes.ts';

/*
 * The lab the multi-host soak builds its hosts in: network namespaces on one switch. Hosts reach each other by
 * their addresses, a host cut off reaches no one it is cut off from, and nothing of a lab outlives it.
 */

const PORT = 8000;
const namespaces = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });

/** A TCP server on the host's address that answers "hi" to every connection. */
async function listen(lab: NetnsLab, host: string): Promise<void> {
  const { address } = lab.host(host);
  const script = `require('net').createServer((s) => s.end('hi')).listen(${PORT}, '${address}', () => console.log('up'))`;
  const server = lab.exec(
    host,
    [process.execPath, '-e', script],
    {},
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => server.stdout!.once('data', resolve));
}

/** What `from` gets connecting to `to`'s server: its answer, the error code, or "no answer" within a second. */
function connect(lab: NetnsLab, from: string, to: string): Promise<string> {
  const script = `const s = require('net').connect(${PORT}, '${lab.host(to).address}');
    s.on('data', (d) => { console.log(String(d)); process.exit(0); });
    s.on('error', (e) => { console.log(e.code); process.exit(0); });
    setTimeout(() => { console.log('no answer'); process.exit(0); }, 1000);`;
  const client = lab.exec(
    from,
    [process.execPath, '-e', script],
    {},
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve) => client.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
}

const unavailable = netnsUnavailable('the lab specs');

describe.skipIf(unavailable !== undefined)('a lab of hosts as network namespaces', () => {
  let lab: NetnsLab | undefined;
  afterEach(() => lab?.destroy());

  it('gives each host its address on one switch, and the hosts reach each other', async () => {
    lab = NetnsLab.create(['a', 'b']);
    expect(lab.description.hosts.map((h) => [h.name, h.address])).toEqual([
      ['a', '10.250.0.11'],
      ['b', '10.250.0.12'],
    ]);
    await Promise.all([listen(lab, 'a'), listen(lab, 'b')]);
    expect(await connect(lab, 'a', 'b')).toBe('hi');
    expect(await connect(lab, 'b', 'a')).toBe('hi');
  });

  it('cuts a host off another until restored: its connections refused, theirs unanswered', async () => {
    lab = NetnsLab.create(['a', 'b', 'c']);
    await Promise.all([listen(lab, 'a'), listen(lab, 'b')]);
    lab.cutOff('a', ['b']);
    expect(await connect(lab, 'a', 'b')).toBe('EACCES');
    expect(await connect(lab, 'b', 'a')).toBe('no answer');
    // A host it is not cut off from reaches it as before.
    expect(await connect(lab, 'c', 'a')).toBe('hi');
    lab.restore('a', ['b']);
    expect(await connect(lab, 'a', 'b')).toBe('hi');
    expect(await connect(lab, 'b', 'a')).toBe('hi');
  });

  it('leaves no namespace and no process behind once destroyed', async () => {
    lab = NetnsLab.create(['a']);
    const exited = new Promise((resolve) => lab!.exec('a', ['sleep', '300'], {}).once('exit', resolve));
    const prefix = lab.description.switchNamespace.replace(/switch$/, '');
    expect(namespaces()).toContain(prefix);
    lab.destroy();
    await exited;
    expect(namespaces()).not.toContain(prefix);
  });

  it('removes a lab whose creating process is gone, with what runs in it', async () => {
    // A run killed by its runner: it created a lab, started a program in it, and never removed it.
    const script = `import { NetnsLab } from './test/support/deployment/netns-hosts.ts';
      const lab = NetnsLab.create(['a']);
      lab.exec('a', ['sleep', '300'], {});
      console.log(lab.description.switchNamespace);`;
    const creator = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const switchNamespace = await new Promise<string>((resolve) =>
      creator.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())),
    );
    creator.kill('SIGKILL');
    await new Promise((resolve) => creator.once('exit', resolve));
    const prefix = switchNamespace.replace(/switch$/, '');
    expect(namespaces()).toContain(prefix);
    expect(removeLeftoverLabs()).toEqual(expect.arrayContaining([`${prefix}a`, switchNamespace]));
    expect(namespaces()).not.toContain(prefix);
  });
});
