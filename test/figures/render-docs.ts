import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runMain } from '../../lib/cli-main.ts';
import { docFiles, renderDoc, REPO_ROOT } from './figure-files.ts';

// npm run figures: re-renders every generated section of the README and docs/ from docs/figures/*.json
// (after a renderer or a doc's prose around a section changed; the figures themselves come from their commands).
runMain(async () => {
  for (const file of await docFiles()) {
    const markdown = await readFile(file, 'utf8');
    const rendered = await renderDoc(file, markdown);
    if (rendered === markdown) continue;
    await writeFile(file, rendered);
    console.log(`re-rendered ${path.relative(REPO_ROOT, file)}`);
  }
  return 0;
});
