import { describe, expect, it } from 'vitest';
import { ProgressBoard } from '../../lib/progress-board.ts';
import { createTerminalDisplay, onTerminal } from '../../lib/terminal-display.ts';

/**
 * What a terminal shows after the writes: just enough of one to replay the display's sequences (text,
 * newlines, "cursor N lines up to column 0" and "clear to the end of the screen").
 */
const ESC = String.fromCharCode(27);

function screenAfter(chunks: readonly string[]): string[] {
  const screen: string[] = [''];
  let row = 0;
  const text = chunks.join('');
  for (let i = 0; i < text.length;) {
    const escape = text[i] === ESC ? /^\[(\d*)([FJ])/.exec(text.slice(i + 1)) : null;
    if (escape) {
      if (escape[2] === 'F') row = Math.max(0, row - Number(escape[1] || 1));
      else {
        screen.splice(row + 1);
        screen[row] = '';
      }
      i += 1 + escape[0].length;
    } else if (text[i] === '\r') {
      screen[row] = '';
      i++;
    } else if (text[i] === '\n') {
      row++;
      screen[row] ??= '';
      i++;
    } else {
      screen[row] += text[i]!;
      i++;
    }
  }
  return screen.filter((line, at) => line !== '' || at < screen.length - 1);
}

function displayed(summary?: () => string | null) {
  let at = 0;
  const board = new ProgressBoard({ now: () => at });
  const written: string[] = [];
  const display = createTerminalDisplay(board, {
    stream: { write: (chunk: string) => written.push(chunk) },
    now: () => at,
    redrawEveryMs: 0,
    ...(summary === undefined ? {} : { summary }),
  });
  return { board, written, display, advance: (ms: number) => void (at += ms) };
}

describe('createTerminalDisplay', () => {
  it('redraws the lines in place as steps progress: one line per step, never a growing scroll', () => {
    const { board, written, advance } = displayed();
    const staging = board.start('stage records', { unit: 'records' });
    advance(600);
    staging.tick(1000);
    staging.tick(53_238);
    staging.done();
    const simulate = board.start('simulate clusters', { total: 100, unit: 'clusters' });
    advance(1000);
    simulate.tick(50);
    expect(screenAfter(written)).toEqual([
      '✓ stage records      [████████████████████████]  54,238 records  done in 600ms',
      '› simulate clusters  [████████████░░░░░░░░░░░░]  50/100 clusters  50%  1.0s left',
    ]);
  });

  it('holds a step’s time left while it waits on another step, and draws the summary line under the steps', () => {
    let summary: string | null = 'precompute: about 2–13 min left in all';
    const { board, written, advance } = displayed(() => summary);
    const gather = board.start('gather statistics', { total: 400, unit: 'clusters' });
    advance(10_000);
    gather.tick(100);
    // 40 s of waiting on the simulate step: at its rate it would say 2m30s, but no work was added.
    advance(40_000);
    const simulate = board.start('simulate clusters', { total: 100, unit: 'clusters' });
    advance(1000);
    simulate.tick(50);
    expect(screenAfter(written)).toEqual([
      '› gather statistics  [██████░░░░░░░░░░░░░░░░░░]  100/400 clusters  25%  30.0s left',
      '› simulate clusters  [████████████░░░░░░░░░░░░]  50/100 clusters  50%  1.0s left',
      'precompute: about 2–13 min left in all',
    ]);
    summary = null;
    simulate.done();
    expect(screenAfter(written).at(-1)).toBe(
      '✓ simulate clusters  [████████████████████████]  50/100 clusters  done in 1.0s',
    );
  });

  it('prints a block below the finished steps, and later steps below the block, never over it', () => {
    const { board, written, display, advance } = displayed();
    const write = board.start('write snapshot', { total: 2, unit: 'tables' });
    write.tick(2);
    advance(300);
    write.done();
    display.print('┌ API key ┐\n└ esk_1 ┘');
    const simulate = board.start('simulate clusters', { total: 4, unit: 'clusters' });
    simulate.tick(1);
    display.print('warn: a source is stale');
    simulate.tick(1);
    display.close();
    expect(screenAfter(written)).toEqual([
      '✓ write snapshot  [████████████████████████]  2/2 tables  done in 300ms',
      '┌ API key ┐',
      '└ esk_1 ┘',
      'warn: a source is stale',
      '› simulate clusters  [████████████░░░░░░░░░░░░]  2/4 clusters  50%',
    ]);
  });
});

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
