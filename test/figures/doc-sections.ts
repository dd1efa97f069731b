/**
 * Generated sections of the docs: text between `<!-- figures:SET/PART -->` and `<!-- /figures:SET/PART -->`
 * is written by a command (a bench, the conformance run, a lake report) from a figure file, never by hand.
 * A section may sit inside a line (a count in a sentence) or span lines (a table).
 */
export interface DocSection {
  /** `SET/PART`, e.g. `conformance/cases` or `bench-simulate/table`. */
  id: string;
  set: string;
  part: string;
  /** The text between the markers as it stands. */
  body: string;
}

const SECTION = /<!-- figures:([a-z0-9-]+)\/([a-z0-9-]+) -->([\s\S]*?)<!-- \/figures:\1\/\2 -->/g;
const ANY_MARKER = /<!-- \/?figures:[^>]*-->/g;

/** The generated sections of a markdown text, in order. */
export function findSections(markdown: string): DocSection[] {
  return [...markdown.matchAll(SECTION)].map(([, set = '', part = '', body = '']) => ({
    id: `${set}/${part}`,
    set,
    part,
    body,
  }));
}

/**
 * Markers that do not pair up into a section (a typo, a missing end): such text would never be regenerated,
 * so they are reported rather than ignored.
 */
export function unpairedMarkers(markdown: string): string[] {
  return [...markdown.replace(SECTION, '').matchAll(ANY_MARKER)].map(([marker]) => marker);
}

/**
 * The text with every section of `set` replaced by `render(part)`. A body that spans lines is written
 * between blank lines so that markdown renders a table or paragraph there; an inline one stays inline.
 */
export function replaceSections(markdown: string, set: string, render: (part: string) => string): string {
  return markdown.replace(SECTION, (whole, sectionSet: string, part: string) => {
    if (sectionSet !== set) return whole;
    const body = render(part);
    const open = `<!-- figures:${set}/${part} -->`;
    const close = `<!-- /figures:${set}/${part} -->`;
    return body.includes('\n') ? `${open}\n\n${body.trim()}\n\n${close}` : `${open}${body}${close}`;
  });
}
