import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs `body` in a fresh node process after making an asynchronous logger `log`; its exit code and output. */
function runWithAsyncLogger(body: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `import { createAsyncLogger } from './lib/log.ts';
    const log = createAsyncLogger('info', 'spec');
    ${body}`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? (err.code as number) : 0, stdout, stderr }),
    );
  });
}

const numbersLogged = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { i: number; name: string }).i);

const LINES = 20_000;
const allNumbers = Array.from({ length: LINES }, (_, i) => i);

describe('createAsyncLogger', () => {
  it('loses no line when the process exits at once after writing them (process.exit)', async () => {
    const { code, stdout } = await runWithAsyncLogger(
      `for (let i = 0; i < ${LINES}; i++) log.info({ i }, 'line'); process.exit(0);`,
    );
    expect(code).toBe(0);
    expect(numbersLogged(stdout)).toEqual(allNumbers);
    expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({ level: 30, name: 'spec', i: 0, msg: 'line' });
  });

  it('loses no line when an uncaught exception ends the process, whose error still reaches stderr', async () => {
    const { code, stdout, stderr } = await runWithAsyncLogger(
      `for (let i = 0; i < ${LINES}; i++) log.info({ i }, 'line');
       setImmediate(() => { throw new Error('fatal: the spec threw this'); });`,
    );
    expect(code).toBe(1);
    expect(numbersLogged(stdout)).toEqual(allNumbers);
    expect(stderr).toContain('Error: fatal: the spec threw this');
  });
});
