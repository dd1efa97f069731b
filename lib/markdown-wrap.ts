/** The width generated Markdown is wrapped at, as the hand-written docs are. */
export const MARKDOWN_WIDTH = 120;

/**
 * A word Markdown would read as the start of a block (a list bullet, a numbered item, a heading, a quote, a
 * table row) if it began a line, or a dash that reads badly there: it is kept on the line before instead.
 */
const STARTS_A_BLOCK = /^(?:[-+*]|\d+[.)]|#{1,6}|>|\||—)$/;

/**
 * A paragraph or list item broken at spaces into lines of at most `width` characters: the first line starts
 * with `first` (e.g. `- `), the others with `rest` (e.g. the two spaces that keep them in the list item). A
 * word longer than a line stays whole on its own line.
 */
export function wrapMarkdown(text: string, first = '', rest = '', width = MARKDOWN_WIDTH): string {
  const words: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (STARTS_A_BLOCK.test(word) && words.length > 0) words[words.length - 1] += ` ${word}`;
    else words.push(word);
  }
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}
