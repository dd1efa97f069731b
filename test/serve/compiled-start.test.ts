import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
// Inside the repository (git-ignored .tmp/) so the compiled code finds the repository root as dist/ does;
// kept between runs, so tsc's incremental build makes a repeated run quick.
const outDir = path.join(root, '.tmp', 'compiled-start');

let server: ChildProcess | undefined;
let lakeDir: string | undefined;
afterEach(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  server = undefined;
  if (lakeDir) await rm(lakeDir, { recursive: true, force: true });
  lakeDir = undefined;
});

describe('npm start from the compiled JavaScript', () => {
  it('serves from plain node (no tsx), its snapshot table reader included', async () => {
    await promisify(execFile)(
      process.execPath,
      [
        path.join(root, 'node_modules/typescript/bin/tsc'),
        ...['-p', 'tsconfig.build.json', '--outDir', outDir],
        ...['--tsBuildInfoFile', path.join(outDir, '.tsbuildinfo')],
      ],
      { cwd: root },
    );
    lakeDir = await mkdtemp(path.join(tmpdir(), 'compiled-start-'));
    const child = spawn(process.execPath, [path.join(outDir, 'serve/main.js')], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH, LAKE_DIR: lakeDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    await expect
      .poll(() => /"msg":"serving on (http:\/\/\S+?)"/.exec(stdout)?.[1], { timeout: 60_000 })
      .toBeTruthy();
    const url = /"msg":"serving on (http:\/\/\S+?)"/.exec(stdout)![1]!;
    const key = /API key: (esk_\S+)/.exec(stderr)![1]!;

    // The first start ran the pipeline on the sample data (found from the repository root, with another
    // cwd) and loaded the snapshot through the table reader child, which also ran compiled.
    const states = await fetch(`${url}/api/v1/states`, { headers: { authorization: `Bearer ${key}` } });
    expect(states.status).toBe(200);
    expect(((await states.json()) as Record<string, { status: string }>).RI).toEqual({ status: 'launched' });
    expect(stdout).not.toContain('"level":50');

    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  }, 180_000);
});
