import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What each top-level folder may import, besides itself: schemas ← lib ← data-lake (the lake's layout and
 * contracts) ← the stages and serve ← start (the one composition root, which wires `npm start`). Among the
 * stages, transform drives ingest (it runs the ingest job) and builds tables from simulate's models;
 * ingest and simulate import no other stage. serve reads snapshots through data-lake only, and reaches the
 * model work a request triggers through an interface (schemas/rem-model.ts) that start supplies.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  schemas: [],
  lib: ['schemas'],
  'data-lake': ['lib', 'schemas'],
  ingest: ['lib', 'schemas'],
  simulate: ['lib', 'schemas'],
  transform: ['ingest', 'simulate', 'data-lake', 'lib', 'schemas'],
  serve: ['data-lake', 'lib', 'schemas'],
  start: ['serve', 'transform', 'ingest', 'simulate', 'data-lake', 'lib', 'schemas'],
};

const topFolder = (file: string): string => path.relative(repoRoot, file).split(path.sep)[0] ?? '';

/** The relative module specifiers of a source file (static, re-export and dynamic imports). */
function relativeImports(source: string): string[] {
  const specifiers = source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm);
  return [...specifiers].map((match) => match[1]!);
}

/** The import of `specifier` from `file` when it runs against the layers, else null. */
function layerViolation(file: string, specifier: string): string | null {
  const from = topFolder(file);
  const to = topFolder(path.resolve(path.dirname(file), specifier));
  const allowed = MAY_IMPORT[from];
  if (allowed === undefined || to === from || allowed.includes(to)) return null;
  return `${path.relative(repoRoot, file)} imports ${specifier} (${from} → ${to})`;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('import layers', () => {
  it('every import in the source folders runs downward', () => {
    const violations = Object.keys(MAY_IMPORT).flatMap((folder) =>
      sourceFiles(path.join(repoRoot, folder)).flatMap((file) =>
        relativeImports(readFileSync(file, 'utf8'))
          .map((specifier) => layerViolation(file, specifier))
          .filter((violation) => violation !== null),
      ),
    );
    expect(violations).toEqual([]);
  });

  it('reports a stage importing serve, and schemas importing a stage', () => {
    const audits = path.join(repoRoot, 'transform/tables/incentives/catalog-audits.ts');
    expect(layerViolation(audits, '../../../serve/incentives/eligibility/states.ts')).toBe(
      'transform/tables/incentives/catalog-audits.ts imports ../../../serve/incentives/eligibility/states.ts (transform → serve)',
    );
    const records = path.join(repoRoot, 'schemas/records/index.ts');
    expect(layerViolation(records, '../../ingest/source.ts')).toBe(
      'schemas/records/index.ts imports ../../ingest/source.ts (schemas → ingest)',
    );
    expect(layerViolation(path.join(repoRoot, 'simulate/features.ts'), '../transform/catalog.ts')).toBe(
      'simulate/features.ts imports ../transform/catalog.ts (simulate → transform)',
    );
  });

  it('reports serve reaching into the pipeline or the model, and the lake layer into a stage', () => {
    const remData = path.join(repoRoot, 'serve/rem/rem-data.ts');
    expect(layerViolation(remData, '../../transform/pipeline/run-pipeline.ts')).toBe(
      'serve/rem/rem-data.ts imports ../../transform/pipeline/run-pipeline.ts (serve → transform)',
    );
    expect(layerViolation(remData, '../../simulate/surrogate/committed-model.ts')).toBe(
      'serve/rem/rem-data.ts imports ../../simulate/surrogate/committed-model.ts (serve → simulate)',
    );
    expect(
      layerViolation(path.join(repoRoot, 'data-lake/snapshot-reader.ts'), '../transform/catalog.ts'),
    ).toBe('data-lake/snapshot-reader.ts imports ../transform/catalog.ts (data-lake → transform)');
  });

  it('allows imports within a folder and down the layers', () => {
    const servingLocations = path.join(repoRoot, 'transform/tables/incentives/serving-locations.ts');
    expect(layerViolation(servingLocations, '../../../schemas/incentives/ami.ts')).toBeNull();
    expect(layerViolation(servingLocations, '../lake-table.ts')).toBeNull();
    expect(layerViolation(path.join(repoRoot, 'start/main.ts'), '../transform/catalog.ts')).toBeNull();
  });

  it('finds static, type-only, re-export and dynamic imports', () => {
    const source = [
      "import { a } from '../schemas/a.ts';",
      "import type { B } from './b.ts';",
      "export { c } from '../lib/c.ts';",
      "const { d } = await import('./d.ts');",
      "import './side-effect.ts';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(relativeImports(source)).toEqual([
      '../schemas/a.ts',
      './b.ts',
      '../lib/c.ts',
      './d.ts',
      './side-effect.ts',
    ]);
  });
});
