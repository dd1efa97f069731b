import { describe, expect, it } from 'vitest';
import { onTerminal } from '../../start/start-command.ts';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('onTerminal (LOG_FORMAT)', () => {
  it('auto: draws progress only when both stdout and stderr are terminals, else JSON logs', () => {
    expect(onTerminal({ LOG_FORMAT: 'auto' }, { stdout: tty, stderr: tty })).toBe(true);
    expect(onTerminal({ LOG_FORMAT: 'auto' }, { stdout: pipe, stderr: tty })).toBe(false);
    expect(onTerminal({ LOG_FORMAT: 'auto' }, { stdout: tty, stderr: pipe })).toBe(false);
    expect(onTerminal({ LOG_FORMAT: 'auto' }, { stdout: {}, stderr: {} })).toBe(false);
  });

  it('json and terminal: as asked, whatever the streams are', () => {
    expect(onTerminal({ LOG_FORMAT: 'json' }, { stdout: tty, stderr: tty })).toBe(false);
    expect(onTerminal({ LOG_FORMAT: 'terminal' }, { stdout: pipe, stderr: pipe })).toBe(true);
  });
});
