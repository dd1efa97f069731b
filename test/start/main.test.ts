import { execFile, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import { servingUrl, startMain } from '../support/start-main-process.ts';

// Inside the repository (git-ignored .tmp/) so the compiled code finds the repository root as dist/ does;
// kept between runs, so tsc's incremental build makes a repeated run quick.
const outDir = path.join(REPOSITORY_ROOT, '.tmp', 'compiled-start');

let running: ChildProcess | undefined;
afterEach(async () => {
  if (running && running.exitCode === null) running.kill('SIGKILL');
  running = undefined;
});

describe('npm start (start/main.ts)', () => {
  it('exits 1 with one line naming a wrong variable, before touching anything', async () => {
    const { output, exited } = startMain({ RATE_LIMIT_PER_MINUTE: '0', LAKE_DIR: '/nonexistent' });
    expect(await exited).toBe(1);
    expect(output.stderr).toBe(
      'error: Invalid environment variable RATE_LIMIT_PER_MINUTE: Too small: expected number to be >0\n',
    );
    expect(output.stdout).toBe('');
  });

  // The whole first start (pipeline on the sample data included) gets a generous bound on a busy machine.
  it('on a first start builds the sample snapshot, prints a new key once, serves with it and stops on SIGTERM', async ({
    lakeDir,
  }) => {
    const { child, output, exited } = startMain({
      LAKE_DIR: lakeDir,
      PORT: '0',
      HOST: '127.0.0.1',
      // REM for one small state: the national precompute is a bench, not a test.
      REM_STATES: 'RI',
      HEALTH_STATES: 'RI',
    });
    running = child;
    await expect.poll(() => servingUrl(output.stdout), { timeout: 60_000 }).toBeTruthy();
    const url = servingUrl(output.stdout)!;
    // The key is shown once, framed, on stderr; the JSON logs on stdout never carry it.
    const keys = output.stderr.match(/esk_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    expect(output.stderr).toContain(`\n${'='.repeat(78)}\n  No API key was configured`);
    expect(output.stderr).toContain(`\n    API key: ${key}\n`);
    expect(output.stdout).not.toMatch(/esk_/);
    expect(await readFile(path.join(lakeDir, 'keys.json'), 'utf8')).not.toContain(key);

    const health = (await (await fetch(`${url}/healthz`)).json()) as {
      status: string;
      snapshot: { id: string };
    };
    expect(health.status).toBe('ok');
    const states = await fetch(`${url}/api/v1/states`, { headers: { authorization: `Bearer ${key}` } });
    expect(states.status).toBe(200);
    expect(states.headers.get('x-snapshot-id')).toBe(health.snapshot.id);
    expect((await fetch(`${url}/api/v1/states`)).status).toBe(401);
    // While it runs, /healthz gives the time it has left from its first reading: a range before it is timed.
    const readings: { secondsLeft: number | null; secondsLeftAtMost: number | null }[] = [];
    const reading = setInterval(() => {
      void fetch(`${url}/healthz`)
        .then(
          async (answer) =>
            ((await answer.json()) as { precompute: (typeof readings)[number] | null }).precompute,
        )
        .then(
          (precompute) => void (precompute && readings.push(precompute)),
          () => undefined,
        );
    }, 100);
    onTestFinished(() => clearInterval(reading));
    // The REM and health tables follow from the precompute: a quick stage first, then the configured one.
    await expect
      .poll(async () => (await (await fetch(`${url}/healthz`)).json()) as unknown, { timeout: 60_000 })
      .toMatchObject({
        families: { incentives: true, rem: true, 'health-impacts': true, lake: true },
        precompute: null,
      });
    // The JSON logs reach stdout within a second (buffered), and a replica may swap in the precompute's
    // snapshot before the run that published it has logged its end.
    const stages = () =>
      [...output.stdout.matchAll(/"msg":"(\w[\w ]*) pipeline run done"/g)].map((m) => m[1]);
    await expect.poll(stages, { timeout: 10_000 }).toEqual(['incentives', 'first answers', 'precompute']);
    clearInterval(reading);
    expect(readings.length).toBeGreaterThan(0);
    for (const { secondsLeft, secondsLeftAtMost } of readings) {
      expect(secondsLeft).toBeTypeOf('number');
      expect(secondsLeftAtMost).toBeGreaterThanOrEqual(secondsLeft!);
    }
    // A quiet start: nothing it expects (the sample's audit findings, a warming server) is a warning or an error.
    expect(output.stdout).not.toMatch(/"level":(40|50|60)/);
    // REM outside the precomputed states: a Texas address's cluster is computed on request.
    const texas = await fetch(
      `${url}/api/v1/rem/address?address=${encodeURIComponent('1 Broadway, Lubbock, TX 79401')}` +
        '&upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas',
      { headers: { authorization: `Bearer ${key}` } },
    );
    expect(texas.status).toBe(200);
    expect(((await texas.json()) as { estimate_type: string }).estimate_type).toBe('county_level');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output.stdout).toContain('"msg":"shutting down: finishing requests in flight"');
  }, 180_000);

  it('from the compiled JavaScript serves from plain node (no tsx), its snapshot table reader included', async ({
    lakeDir,
  }) => {
    await promisify(execFile)(
      process.execPath,
      [
        path.join(REPOSITORY_ROOT, 'node_modules/typescript/bin/tsc'),
        ...['-p', 'tsconfig.build.json', '--outDir', outDir],
        ...['--tsBuildInfoFile', path.join(outDir, '.tsbuildinfo')],
      ],
      { cwd: REPOSITORY_ROOT },
    );
    // Another cwd: the compiled code must find the sample data from the repository root on its own.
    const { child, output, exited } = startMain(
      { LAKE_DIR: lakeDir, PORT: '0', HOST: '127.0.0.1', REM_STATES: 'RI', HEALTH_STATES: 'RI' },
      { args: [path.join(outDir, 'start/main.js')], cwd: tmpdir() },
    );
    running = child;
    await expect.poll(() => servingUrl(output.stdout), { timeout: 60_000 }).toBeTruthy();
    const url = servingUrl(output.stdout)!;
    const key = /API key: (esk_\S+)/.exec(output.stderr)![1]!;

    // The first start ran the pipeline on the sample data and loaded the snapshot through the table
    // reader child, which also ran compiled.
    const states = await fetch(`${url}/api/v1/states`, { headers: { authorization: `Bearer ${key}` } });
    expect(states.status).toBe(200);
    expect(((await states.json()) as Record<string, { status: string }>).RI).toEqual({ status: 'launched' });
    expect(output.stdout).not.toContain('"level":50');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 180_000);
});
