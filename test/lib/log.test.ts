import { describe, expect, it } from 'vitest';
import { createLogger, terminalLogDestination } from '../../lib/log.ts';

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
