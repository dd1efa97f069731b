import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HAND_OVER_MS, batchedDestination, createLogger, terminalLogDestination } from '../../lib/log.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs `body` in a fresh node process after making an asynchronous logger `log`; its exit code and output. */
function runWithAsyncLogger(body: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `import { createBatchedLogger } from './lib/log.ts';
    const log = createBatchedLogger('info', 'spec');
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

describe('createBatchedLogger', () => {
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

describe('batchedDestination', () => {
  const recordingStream = () => {
    const writes: string[] = [];
    return { writes, stream: { write: (chunk: string) => writes.push(chunk), flushSync: () => {} } };
  };
  afterEach(() => void vi.useRealTimers());

  it(`hands the lines gathered to the stream as one write, ${HAND_OVER_MS} ms after the first of them`, () => {
    vi.useFakeTimers();
    const { writes, stream } = recordingStream();
    const destination = batchedDestination(stream, () => {});
    destination.write('{"i":1}\n');
    vi.advanceTimersByTime(HAND_OVER_MS - 1);
    destination.write('{"i":2}\n');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['{"i":1}\n{"i":2}\n']);
    destination.write('{"i":3}\n');
    vi.advanceTimersByTime(HAND_OVER_MS);
    expect(writes).toEqual(['{"i":1}\n{"i":2}\n', '{"i":3}\n']);
  });

  it('hands lines over at once when they reach 16 KiB, so no write grows past sonic-boom’s largest', () => {
    vi.useFakeTimers();
    const { writes, stream } = recordingStream();
    const destination = batchedDestination(stream, () => {});
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 17; i++) destination.write(line);
    expect(writes).toEqual([line.repeat(16)]);
    vi.advanceTimersByTime(HAND_OVER_MS);
    expect(writes).toEqual([line.repeat(16), line]);
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
