import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { docFiles, renderDoc, writeFigures } from './figure-files.ts';

describe('the figures the README and docs quote', () => {
  it('are exactly what their figure files render: none typed by hand, none stale', async () => {
    for (const file of await docFiles()) {
      const markdown = await readFile(file, 'utf8');
      expect(await renderDoc(file, markdown), `${file}: run "npm run figures" or the set's command`).toBe(
        markdown,
      );
    }
  });
});

describe('writing a set of figures', () => {
  const conformance = {
    cases: 74,
    passed: 74,
    byKind: { calculator: 33, programs: 2, loan: 1, utilities: 7, bad: 29, badZips: 2 },
  };

  async function repoWithDocs(root: string, docs: Record<string, string>): Promise<string> {
    await mkdir(path.join(root, 'docs', 'figures'), { recursive: true });
    await writeFile(path.join(root, 'README.md'), '# A service\n');
    for (const [name, text] of Object.entries(docs)) await writeFile(path.join(root, 'docs', name), text);
    return root;
  }

  it('stores the figures and re-renders every doc quoting them, and only those', async ({ tempDir }) => {
    const root = await repoWithDocs(tempDir, {
      'testing.md':
        'It sends the <!-- figures:conformance/kinds -->33 calculator<!-- /figures:conformance/kinds --> cases.\n',
      'api.md': 'No figures here.\n',
    });
    expect(await writeFigures('conformance', conformance, root)).toEqual(['docs/testing.md']);
    expect(await readFile(path.join(root, 'docs', 'testing.md'), 'utf8')).toBe(
      'It sends the <!-- figures:conformance/kinds -->33 calculator, 2 programs, 1 loan-programs, 7 utilities, ' +
        '29 bad-query and 2 unknown-ZIP<!-- /figures:conformance/kinds --> cases.\n',
    );
    expect(
      JSON.parse(await readFile(path.join(root, 'docs', 'figures', 'conformance.json'), 'utf8')),
    ).toEqual(conformance);
    expect(await writeFigures('conformance', conformance, root)).toEqual([]);
  });

  it('refuses figures that do not fit their set, and names an unknown set or part', async ({ tempDir }) => {
    const root = await repoWithDocs(tempDir, {
      'x.md': '<!-- figures:conformance/total -->1<!-- /figures:conformance/total -->\n',
    });
    await expect(writeFigures('conformance', { cases: 'many' }, root)).rejects.toThrow(/cases/);
    await expect(writeFigures('nosuch', {}, root)).rejects.toThrow('no figure set named "nosuch"');
    await expect(writeFigures('conformance', conformance, root)).rejects.toThrow(
      'figure set "conformance" has no part "total"',
    );
  });

  it('says which command writes a figure file that is missing', async ({ tempDir }) => {
    const root = await repoWithDocs(tempDir, {});
    const doc = 'Cases: <!-- figures:conformance/cases --><!-- /figures:conformance/cases -->\n';
    await expect(renderDoc(path.join(root, 'docs', 'x.md'), doc, root)).rejects.toThrow(
      'docs/figures/conformance.json is missing: run npm run test:conformance',
    );
  });
});
