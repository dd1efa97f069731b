import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as prettier from 'prettier';
import { findSections, replaceSections, unpairedMarkers } from './doc-sections.ts';
import type { FigureSet } from './figure-set.ts';
import { figureSet } from './figure-sets.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Where a set's figures are kept: docs/figures/<set>.json. */
export const figureFile = (set: string, root = REPO_ROOT): string =>
  path.join(root, 'docs', 'figures', `${set}.json`);

/** The files that may quote figures: the README and every docs/*.md. */
export async function docFiles(root = REPO_ROOT): Promise<string[]> {
  const docs = (await readdir(path.join(root, 'docs'))).filter((f) => f.endsWith('.md')).sort();
  return [path.join(root, 'README.md'), ...docs.map((f) => path.join(root, 'docs', f))];
}

function requireFigureSet(set: string): FigureSet<unknown> {
  const found = figureSet(set);
  if (!found) throw new Error(`no figure set named "${set}"`);
  return found;
}

/** The figures of a set as written by its command, validated against the set's schema. */
export async function readFigures(set: string, root = REPO_ROOT): Promise<unknown> {
  const figureSetOf = requireFigureSet(set);
  const text = await readFile(figureFile(set, root), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT')
      throw new Error(`${path.relative(root, figureFile(set, root))} is missing: run ${figureSetOf.command}`);
    throw error;
  });
  return figureSetOf.schema.parse(JSON.parse(text));
}

/** Formats as `npm run lint` expects, so written files pass `prettier --check`. */
async function formatted(text: string, file: string): Promise<string> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...options, filepath: file });
}

/**
 * A doc as the figure files say it must read: every generated section (or those of `onlySets`) re-rendered
 * from its set's file. Throws on a section naming an unknown set or part, or a marker without its pair.
 */
export async function renderDoc(
  file: string,
  markdown: string,
  root = REPO_ROOT,
  onlySets?: readonly string[],
): Promise<string> {
  const unpaired = unpairedMarkers(markdown);
  if (unpaired.length > 0) throw new Error(`${file}: unpaired figure markers ${unpaired.join(', ')}`);
  let text = markdown;
  const sets = new Set(findSections(markdown).map((s) => s.set));
  for (const set of onlySets ? [...sets].filter((s) => onlySets.includes(s)) : sets) {
    const figures = await readFigures(set, root);
    const { parts } = requireFigureSet(set);
    text = replaceSections(text, set, (part) => {
      const render = parts[part];
      if (!render) throw new Error(`${file}: figure set "${set}" has no part "${part}"`);
      return render(figures);
    });
  }
  return formatted(text, file);
}

/**
 * Writes a set's figures and re-renders every doc that quotes them; returns the docs it changed. The one way
 * figures reach the docs: benches, the conformance run and lake reports call it.
 */
export async function writeFigures(set: string, figures: unknown, root = REPO_ROOT): Promise<string[]> {
  const figureSetOf = requireFigureSet(set);
  const file = figureFile(set, root);
  await writeFile(file, await formatted(JSON.stringify(figureSetOf.schema.parse(figures)), file));
  const changed: string[] = [];
  for (const doc of await docFiles(root)) {
    const markdown = await readFile(doc, 'utf8');
    if (!findSections(markdown).some((section) => section.set === set)) continue;
    const rendered = await renderDoc(doc, markdown, root, [set]);
    if (rendered === markdown) continue;
    await writeFile(doc, rendered);
    changed.push(path.relative(root, doc));
  }
  return changed;
}
