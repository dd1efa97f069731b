import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCurrent } from '../../transform/lake/current-pointer.ts';

const script = fileURLToPath(new URL('../../transform/cli/refresh.ts', import.meta.url));
let lakeDir: string;
beforeEach(async () => {
  lakeDir = await mkdtemp(path.join(tmpdir(), 'refresh-'));
});
afterEach(async () => {
  await rm(lakeDir, { recursive: true, force: true });
});

describe('npm run refresh', () => {
  it('refuses a missing or invalid cron expression with a usage message', () => {
    const missing = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('usage: npm run refresh -- --cron "<expression>"');

    const invalid = spawnSync(process.execPath, ['--import', 'tsx', script, '--cron', '61 * * * *'], {
      encoding: 'utf8',
    });
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain('--cron "61 * * * *" is not a valid cron expression');
  }, 60_000);

  it('runs the pipeline on schedule (the project sample sources) and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--cron', '* * * * * *'], {
      env: { ...process.env, LAKE_DIR: lakeDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ended = await new Promise<Record<string, unknown>>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.includes('"scheduled pipeline run ended"'));
        if (line) resolve(JSON.parse(line) as Record<string, unknown>);
      });
      child.on('exit', (code) => reject(new Error(`refresh exited early (${code}): ${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');

    expect(ended.exitCode).toBe(0);
    expect(await exited).toBe(0);
    expect(await readCurrent(lakeDir)).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}$/);
  }, 120_000);
});
