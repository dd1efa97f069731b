import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What each top-level folder may import, besides itself: schemas ← lib ← eventlog ← data-lake (the lake, which
 * announces its publishes on the log) ← model (the REM and health models) ← the stages ← pipeline (the orchestrator that runs them) and
 * serve ← start (the one composition root, which wires `npm start`). The stages are ingest, transform and
 * simulate: transform reads ingest's records and builds tables with the models, simulate runs the models in
 * batches; none imports pipeline. serve reads snapshots through data-lake only (and hears of publishes on the log), and reaches the model work a
 * request triggers through an interface (schemas/rem-model.ts) that start supplies.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  schemas: [],
  lib: ['schemas'],
  eventlog: ['lib', 'schemas'],
  'data-lake': ['eventlog', 'lib', 'schemas'],
  model: ['lib', 'schemas'],
  ingest: ['eventlog', 'lib', 'schemas'],
  simulate: ['model', 'eventlog', 'data-lake', 'lib', 'schemas'],
  transform: ['ingest', 'simulate', 'model', 'eventlog', 'data-lake', 'lib', 'schemas'],
  pipeline: ['transform', 'ingest', 'simulate', 'model', 'eventlog', 'data-lake', 'lib', 'schemas'],
  serve: ['data-lake', 'eventlog', 'lib', 'schemas'],
  start: [
    'pipeline',
    'serve',
    'transform',
    'ingest',
    'simulate',
    'model',
    'eventlog',
    'data-lake',
    'lib',
    'schemas',
  ],
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

/** The repository's files (relative, `/`-separated) that `file` imports, from its relative imports. */
function importedFiles(file: string, source: string): string[] {
  return relativeImports(source).map((specifier) =>
    path
      .relative(repoRoot, path.resolve(path.dirname(path.join(repoRoot, file)), specifier))
      .split(path.sep)
      .join('/'),
  );
}

/** The groups of nodes that reach each other through `edges` (Tarjan's strongly connected components, 2+ nodes), sorted. */
function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

const addEdge = (edges: Map<string, Set<string>>, from: string, to: string) => {
  if (!edges.has(from)) edges.set(from, new Set());
  edges.get(from)!.add(to);
};

/** Whether one folder holds the other (or is it): a folder's own files importing its subfolders' is not a cycle. */
const nested = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/**
 * The cycles of an import graph (file → the files it imports): of files, and of folders at every depth,
 * a file standing at depth d for the folder holding it cut to d levels (serve/incentives/eligibility/x.ts
 * is serve, serve/incentives, then serve/incentives/eligibility). Imports between a folder and one inside
 * it are left out: only folders side by side can import each other in a circle.
 */
function importCycles(imports: ReadonlyMap<string, readonly string[]>): {
  files: string[][];
  folders: string[][];
} {
  const fileEdges = new Map<string, Set<string>>();
  const folderEdges = new Map<string, Set<string>>();
  const folderAt = (file: string, depth: number) =>
    path.posix.dirname(file).split('/').slice(0, depth).join('/');
  const depth = Math.max(0, ...[...imports.keys()].map((file) => file.split('/').length - 1));
  for (const [file, imported] of imports) {
    for (const target of imported) {
      addEdge(fileEdges, file, target);
      for (let d = 1; d <= depth; d++) {
        const [from, to] = [folderAt(file, d), folderAt(target, d)];
        if (!nested(from, to)) addEdge(folderEdges, from, to);
      }
    }
  }
  // A circle of folders shows at every depth below theirs: reported once.
  const folders = new Map(cyclesOf(folderEdges).map((cycle) => [cycle.join('\n'), cycle]));
  return { files: cyclesOf(fileEdges), folders: [...folders.values()] };
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
    expect(layerViolation(path.join(repoRoot, 'model/features.ts'), '../pipeline/definitions.ts')).toBe(
      'model/features.ts imports ../pipeline/definitions.ts (model → pipeline)',
    );
    expect(layerViolation(path.join(repoRoot, 'transform/build-tables.ts'), '../pipeline/lineage.ts')).toBe(
      'transform/build-tables.ts imports ../pipeline/lineage.ts (transform → pipeline)',
    );
  });

  it('reports serve reaching into the pipeline or the model, and the lake layer into a stage', () => {
    const remData = path.join(repoRoot, 'serve/rem/rem-data.ts');
    expect(layerViolation(remData, '../../pipeline/run-pipeline.ts')).toBe(
      'serve/rem/rem-data.ts imports ../../pipeline/run-pipeline.ts (serve → pipeline)',
    );
    expect(layerViolation(remData, '../../model/surrogate/committed-model.ts')).toBe(
      'serve/rem/rem-data.ts imports ../../model/surrogate/committed-model.ts (serve → model)',
    );
    expect(
      layerViolation(path.join(repoRoot, 'data-lake/snapshot-reader.ts'), '../pipeline/definitions.ts'),
    ).toBe('data-lake/snapshot-reader.ts imports ../pipeline/definitions.ts (data-lake → pipeline)');
  });

  it('allows imports within a folder and down the layers', () => {
    const servingLocations = path.join(repoRoot, 'transform/tables/incentives/serving-locations.ts');
    expect(layerViolation(servingLocations, '../../../schemas/incentives/ami.ts')).toBeNull();
    expect(layerViolation(servingLocations, '../lake-table.ts')).toBeNull();
    expect(layerViolation(path.join(repoRoot, 'start/main.ts'), '../pipeline/definitions.ts')).toBeNull();
  });

  it('no files and no folders of the source tree, its specs and their support included, import each other in a circle', () => {
    const imports = new Map(
      [...Object.keys(MAY_IMPORT), 'test'].flatMap((folder) =>
        sourceFiles(path.join(repoRoot, folder)).map((file) => {
          const relative = path.relative(repoRoot, file).split(path.sep).join('/');
          return [relative, importedFiles(relative, readFileSync(file, 'utf8'))] as const;
        }),
      ),
    );
    expect(importCycles(imports)).toEqual({ files: [], folders: [] });
  });

  it('reports a circle of files, and of folders side by side at any depth, but not a folder and its own subfolder', () => {
    const imports = new Map<string, string[]>([
      ['transform/tables/incentives/catalog-audits.ts', ['transform/tables/incentives/serving-states.ts']],
      ['transform/tables/incentives/serving-states.ts', ['transform/tables/incentives/catalog-audits.ts']],
      ['model/savings/evaluate-homes.ts', ['model/health/bin-deltas.ts']],
      ['model/health/bin-deltas.ts', ['model/savings/fuel-prices.ts']],
      ['serve/incentives/eligibility/tax.ts', ['serve/http/json-bytes.ts']],
      ['serve/http/query-validation.ts', ['serve/incentives/messages.ts']],
      ['serve/app.ts', ['serve/http/etag.ts']],
      ['serve/http/etag.ts', ['serve/errors.ts']],
    ]);
    expect(importCycles(imports)).toEqual({
      files: [
        ['transform/tables/incentives/catalog-audits.ts', 'transform/tables/incentives/serving-states.ts'],
      ],
      folders: [
        ['model/health', 'model/savings'],
        ['serve/http', 'serve/incentives'],
      ],
    });
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

/** A function body longer than this is a function doing several things: serve/'s functions say one each. */
const MAX_FUNCTION_LINES = 80;

/** Every function of a source whose body runs over `max` lines: `file:line name (n lines)`. */
function longFunctions(file: string, source: string, max: number): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const long: string[] = [];
  const lineOf = (position: number) => tree.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node) => {
    const body = ts.isFunctionLike(node) ? (node as ts.FunctionLikeDeclaration).body : undefined;
    if (body !== undefined) {
      const lines = lineOf(body.getEnd()) - lineOf(body.getStart(tree)) + 1;
      const named =
        (node as ts.FunctionLikeDeclaration).name ??
        (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
      const name = named?.getText(tree) ?? '(anonymous)';
      if (lines > max) long.push(`${file}:${lineOf(node.getStart(tree))} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return long;
}

describe('function length', () => {
  it(`no function in serve/ has a body over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = sourceFiles(path.join(repoRoot, 'serve')).flatMap((file) =>
      longFunctions(path.relative(repoRoot, file), readFileSync(file, 'utf8'), MAX_FUNCTION_LINES),
    );
    expect(long).toEqual([]);
  });

  it('measures every kind of function by its body, nested ones on their own', () => {
    const body = (lines: number) =>
      Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const source = [
      `function declared() {\n${body(4)}\n}`,
      `const arrow = () => {\n${body(5)}\n};`,
      `class C {\n  method() {\n${body(4)}\n  }\n}`,
      `export function outer() {\n  return (x: number) => {\n${body(3)}\n  };\n}`,
    ].join('\n');
    expect(longFunctions('x.ts', source, 3)).toEqual([
      'x.ts:1 declared (4 lines)',
      'x.ts:5 arrow (5 lines)',
      'x.ts:11 method (4 lines)',
      'x.ts:16 outer (5 lines)',
    ]);
  });
});
