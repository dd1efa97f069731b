import { describe, expect, it } from 'vitest';
import { wrapMarkdown } from '../../lib/markdown-wrap.ts';

describe('wrapping generated Markdown', () => {
  it('breaks at spaces into lines of at most the width, the first and the rest with their own prefix', () => {
    expect(wrapMarkdown('one two three four five six', '- ', '  ', 12)).toBe(
      ['- one two', '  three four', '  five six'].join('\n'),
    );
    expect(wrapMarkdown('short', '- ', '  ', 12)).toBe('- short');
  });

  it('keeps a word longer than a line whole, and folds line breaks and runs of spaces', () => {
    expect(wrapMarkdown('a https://example.org/long/path b', '', '', 10)).toBe(
      ['a', 'https://example.org/long/path', 'b'].join('\n'),
    );
    expect(wrapMarkdown('a\n  b   c', '', '', 120)).toBe('a b c');
  });

  it('never starts a line with a word Markdown would read as a new block, nor with a dash', () => {
    expect(wrapMarkdown('values 5 - 3 and 1. then # and — a note', '', '', 8)).toBe(
      ['values', '5 - 3', 'and 1.', 'then #', 'and — a', 'note'].join('\n'),
    );
  });

  it('wraps at 120 characters unless told otherwise', () => {
    const line = wrapMarkdown(`${'word '.repeat(30)}`);
    expect(line.split('\n').map((l) => l.length)).toEqual([119, 29]);
  });
});
