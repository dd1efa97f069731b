import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, terminalLogDestination } from '../../lib/log.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs `body` in a fresh node process after making the server's logger `log`; its exit code and output. */
function runWithServerLogger(body: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `import { createLogger, bufferedStdout } from './lib/log.ts';
    const log = createLogger('info', 'spec', bufferedStdout());
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

describe('the server’s logger (bufferedStdout)', () => {
  it('loses no line when the process exits at once after writing them (process.exit)', async () => {
    const { code, stdout } = await runWithServerLogger(
      `for (let i = 0; i < ${LINES}; i++) log.info({ i }, 'line'); process.exit(0);`,
    );
    expect(code).toBe(0);
    expect(numbersLogged(stdout)).toEqual(allNumbers);
    expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({ level: 30, name: 'spec', i: 0, msg: 'line' });
  });

  it('writes a quiet server’s line within about a second, not only when its buffer fills or at exit', async () => {
    const script = `import { createLogger, bufferedStdout } from './lib/log.ts';
      const log = createLogger('info', 'spec', bufferedStdout());
      log.info({ i: 7 }, 'line');
      setTimeout(() => process.exit(0), 4000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(performance.now())));
    const line = await new Promise<{ text: string; at: number }>((resolve) =>
      child.stdout.once('data', (data: Buffer) => resolve({ text: String(data), at: performance.now() })),
    );
    expect(numbersLogged(line.text)).toEqual([7]);
    // The line came while the process still ran, seconds before its exit would have flushed it.
    expect((await exited) - line.at).toBeGreaterThan(1500);
  });

  it('loses no line when an uncaught exception ends the process, whose error still reaches stderr', async () => {
    const { code, stdout, stderr } = await runWithServerLogger(
      `for (let i = 0; i < ${LINES}; i++) log.info({ i }, 'line');
       setImmediate(() => { throw new Error('fatal: the spec threw this'); });`,
    );
    expect(code).toBe(1);
    expect(numbersLogged(stdout)).toEqual(allNumbers);
    expect(stderr).toContain('Error: fatal: the spec threw this');
  });
});

describe('terminalLogDestination', () => {
  it('prints warnings and errors as one readable line each, with the error’s message, and leaves info out', () => {
    const printed: string[] = [];
    const logger = createLogger(
      'info',
      'serve',
      terminalLogDestination((line) => printed.push(line)),
    );
    logger.info({ snapshot: 's1' }, 'serving snapshot');
    logger.warn('source zip-counties: 3 records quarantined');
    logger.error({ err: new Error('simulate stage stalled') }, 'precompute failed');
    expect(printed).toEqual([
      'warn: source zip-counties: 3 records quarantined',
      'error: precompute failed: simulate stage stalled',
    ]);
  });
});

describe('createLogger', () => {
  it('writes one JSON object a line to its destination', () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'pipeline', { write: (line: string) => void lines.push(line) });
    logger.info({ step: 'stage records' }, 'staged 3 records');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 30,
      name: 'pipeline',
      step: 'stage records',
      msg: 'staged 3 records',
    });
  });
});
