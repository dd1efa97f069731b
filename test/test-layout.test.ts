import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..');
const testRoot = path.join(repoRoot, 'test');
const STAGES = [
  'schemas',
  'lib',
  'eventlog',
  'data-lake',
  'model',
  'ingest',
  'transform',
  'simulate',
  'pipeline',
  'serve',
  'start',
] as const;
/** Folders under test/ that hold the tests' own code (fixtures, benches, the conformance runner, the docs' figures, the specs over the national data), not stage specs. */
const TEST_OWN_FOLDERS = ['support', 'bench', 'conformance', 'figures', 'real-data'];

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes('node_modules'));
}

/** Source modules by base name: `model/sampler/sample-homes.ts` is `sample-homes`. */
function sourcesByName(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const stage of STAGES) {
    for (const file of filesUnder(path.join(repoRoot, stage), (name) => name.endsWith('.ts'))) {
      const name = path.basename(file, '.ts');
      byName.set(name, [...(byName.get(name) ?? []), file]);
    }
  }
  return byName;
}

const stageSpecs = filesUnder(testRoot, (name) => name.endsWith('.test.ts')).filter(
  (file) => !TEST_OWN_FOLDERS.includes(file.split(path.sep)[1] ?? ''),
);

describe('where a spec sits', () => {
  it('a spec named after a source module sits at that module’s path mirrored under test/', () => {
    const byName = sourcesByName();
    const misplaced = stageSpecs.flatMap((spec) => {
      const sources = byName.get(path.basename(spec, '.test.ts')) ?? [];
      const mirrored = sources.map((source) => path.join('test', source.replace(/\.ts$/, '.test.ts')));
      return sources.length === 0 || mirrored.includes(spec) ? [] : [`${spec} → ${mirrored.join(' or ')}`];
    });
    expect(misplaced).toEqual([]);
  });

  it('every other spec sits in a folder that mirrors a source folder, so its stage is plain', () => {
    const outside = stageSpecs
      .map((spec) => path.dirname(path.relative('test', spec)))
      .filter((folder) => folder !== '.' && !existsSync(path.join(repoRoot, folder)));
    expect([...new Set(outside)]).toEqual([]);
  });
});
