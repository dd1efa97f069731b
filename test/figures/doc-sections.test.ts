import { describe, expect, it } from 'vitest';
import { findSections, replaceSections, unpairedMarkers } from './doc-sections.ts';

const doc = [
  'The suite sends <!-- figures:conformance/cases -->69<!-- /figures:conformance/cases --> cases.',
  '',
  '<!-- figures:bench-simulate/table -->',
  '',
  '| figure | value |',
  '',
  '<!-- /figures:bench-simulate/table -->',
].join('\n');

describe('generated sections of a doc', () => {
  it('finds inline and block sections with their set, part and current text', () => {
    expect(findSections(doc)).toEqual([
      { id: 'conformance/cases', set: 'conformance', part: 'cases', body: '69' },
      {
        id: 'bench-simulate/table',
        set: 'bench-simulate',
        part: 'table',
        body: '\n\n| figure | value |\n\n',
      },
    ]);
  });

  it('re-renders only the sections of the set given: inline stays inline, a table gets blank lines around it', () => {
    expect(replaceSections(doc, 'conformance', () => '74')).toBe(doc.replace('-->69<!--', '-->74<!--'));
    expect(replaceSections(doc, 'bench-simulate', () => '| a | b |\n| - | - |\n| 1 | 2 |')).toBe(
      [
        'The suite sends <!-- figures:conformance/cases -->69<!-- /figures:conformance/cases --> cases.',
        '',
        '<!-- figures:bench-simulate/table -->',
        '',
        '| a | b |\n| - | - |\n| 1 | 2 |',
        '',
        '<!-- /figures:bench-simulate/table -->',
      ].join('\n'),
    );
  });

  it('passes each section its part name', () => {
    const parts: string[] = [];
    replaceSections(doc, 'conformance', (part) => (parts.push(part), ''));
    expect(parts).toEqual(['cases']);
  });

  it('reports markers that do not pair up, so no text escapes regeneration', () => {
    expect(unpairedMarkers(doc)).toEqual([]);
    expect(
      unpairedMarkers('a <!-- figures:conformance/cases -->74<!-- /figures:conformance/case --> b'),
    ).toEqual(['<!-- figures:conformance/cases -->', '<!-- /figures:conformance/case -->']);
  });
});
