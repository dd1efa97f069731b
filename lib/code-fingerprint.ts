import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type Metafile } from 'esbuild';
import { REPOSITORY_ROOT } from './repository-root.ts';

/**
 * What a piece of the pipeline computes with, hashed, so that a result is reused only while that code is
 * unchanged: the TypeScript sources of some entry modules and everything they import at run time, and the
 * version of every package they import. esbuild bundles the entries with types, comments and whitespace
 * stripped, so an edited comment or type changes nothing, while any change to what runs (in the entry or
 * any module it imports, however deep) changes the hash. Nothing is bumped by hand.
 *
 * Only static imports are followed: an entry a module starts by file name (a worker thread) is an entry
 * of its own, named by whoever declares the code.
 */
export interface CodeFingerprint {
  /** SHA-256 (hex) of the bundled code and the imported packages' versions. */
  hash: string;
  /** The repository's files in the bundle, relative to the root, sorted. */
  files: string[];
  /** Imported packages (not Node's own modules) and their installed versions. */
  packages: Record<string, string>;
}

const cache = new Map<string, CodeFingerprint>();

/**
 * The fingerprint of the code of `modules`: module URLs (`import.meta.url`, or `new URL('./x.ts',
 * import.meta.url)`) from the TypeScript sources or from the compiled copy in dist/, which both stand for
 * the same source files. Computed once per set of modules and root.
 */
export function codeFingerprint(modules: readonly (string | URL)[], root = REPOSITORY_ROOT): CodeFingerprint {
  const sources = [...new Set(modules.map((m) => sourceFileOf(m, root)))].sort();
  const key = JSON.stringify([root, sources]);
  let fingerprint = cache.get(key);
  if (!fingerprint) cache.set(key, (fingerprint = fingerprintOf(sources, root)));
  return fingerprint;
}

/**
 * The TypeScript source, relative to `root`, that a module URL stands for: the file itself, or for a
 * compiled module (dist/ or any other output directory under the root) the source its path ends with.
 */
export function sourceFileOf(module: string | URL, root = REPOSITORY_ROOT): string {
  const file = fileURLToPath(module);
  const relative = path.relative(root, file).split(path.sep).join('/');
  if (relative.startsWith('../') || path.isAbsolute(relative))
    throw new Error(`${file} is not inside the repository ${root}`);
  const parts = relative.replace(/\.js$/, '.ts').split('/');
  for (let skip = 0; skip < parts.length; skip++) {
    const candidate = parts.slice(skip).join('/');
    if (existsSync(path.join(root, candidate))) return candidate;
  }
  throw new Error(
    `code fingerprint: no TypeScript source for ${relative}; fingerprints are taken from the sources, ` +
      'which must sit in the repository beside the compiled code',
  );
}

function fingerprintOf(sources: readonly string[], root: string): CodeFingerprint {
  const built = buildSync({
    absWorkingDir: root,
    entryPoints: [...sources],
    bundle: true,
    write: false,
    outdir: 'code-fingerprint',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    minifyWhitespace: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  });
  const hash = createHash('sha256');
  const outputs = [...built.outputFiles].sort((a, b) => compare(a.path, b.path));
  for (const output of outputs) {
    hash.update(path.relative(root, output.path).split(path.sep).join('/'));
    hash.update('\0');
    hash.update(output.contents);
    hash.update('\0');
  }
  const packages = packageVersions(built.metafile, root);
  hash.update(JSON.stringify(packages));
  const files = Object.keys(built.metafile.inputs)
    .filter((file) => !file.startsWith('node_modules/'))
    .sort(compare);
  return { hash: hash.digest('hex'), files, packages };
}

/** Each bare package the bundles import, with the version installed under the root's node_modules. */
function packageVersions(metafile: Metafile, root: string): Record<string, string> {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external || isBuiltin(imported.path)) continue;
      const parts = imported.path.split('/');
      names.add(imported.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  return Object.fromEntries(
    [...names].sort(compare).map((name) => {
      const manifest = path.join(root, 'node_modules', name, 'package.json');
      const version = existsSync(manifest)
        ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
        : 'not installed';
      return [name, version];
    }),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
