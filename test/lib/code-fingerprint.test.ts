import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { codeFingerprint, sourceFileOf } from '../../lib/code-fingerprint.ts';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import { SIMULATE_CODE } from '../../simulate/simulate-code.ts';

let root: string;
it.beforeEach(async ({ tempDir }) => {
  root = tempDir;
  await writeFile(path.join(root, 'package.json'), '{"type":"module"}');
  await symlink(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  await mkdir(path.join(root, 'model'));
  await write('model/rates.ts', 'export const RATE = 0.16; // $/kWh\n');
  await write(
    'model/bill.ts',
    "import { z } from 'zod';\nimport { RATE } from './rates.ts';\n" +
      'export const bill = (kwh: number): number => z.number().parse(kwh) * RATE;\n',
  );
});

const write = (file: string, text: string) => writeFile(path.join(root, file), text);
// A fresh root name per computation: the fingerprint is cached per (root, modules) within a process.
const fingerprintOf = async (file: string) => {
  const copy = `${root}-${Math.random().toString(36).slice(2)}`;
  await symlink(root, copy);
  try {
    return codeFingerprint([pathToFileURL(path.join(copy, file))], copy);
  } finally {
    await rm(copy);
  }
};

describe('codeFingerprint', () => {
  it('covers the entry, every module it imports and the versions of the packages it imports', async () => {
    const fingerprint = await fingerprintOf('model/bill.ts');
    expect(fingerprint.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint.files).toEqual(['model/bill.ts', 'model/rates.ts']);
    expect(fingerprint.packages).toEqual({ zod: expect.stringMatching(/^4\./) });
  });

  it('changes when code an entry imports changes, however deep', async () => {
    const before = await fingerprintOf('model/bill.ts');
    await write('model/rates.ts', 'export const RATE = 0.17; // $/kWh\n');
    expect((await fingerprintOf('model/bill.ts')).hash).not.toBe(before.hash);
  });

  it('does not change for comments, types or formatting, which change nothing that runs', async () => {
    const before = await fingerprintOf('model/bill.ts');
    await write(
      'model/bill.ts',
      "import { z } from 'zod';\nimport { RATE } from './rates.ts';\n\n" +
        '/** The annual bill of a home, in dollars. */\n' +
        'export const bill = (kwh: number): number =>\n  z.number().parse(kwh) * (RATE as number);\n',
    );
    await write(
      'model/rates.ts',
      '/** Residential average, EIA 2023. */\nexport const RATE: number = 0.16;\n',
    );
    expect((await fingerprintOf('model/bill.ts')).hash).toBe(before.hash);
  });

  it('reads a compiled module (dist/ or another output directory) as its TypeScript source', () => {
    const compiled = (file: string) => sourceFileOf(pathToFileURL(path.join(REPOSITORY_ROOT, file)));
    expect(compiled('dist/simulate/worker-thread.js')).toBe('simulate/worker-thread.ts');
    expect(compiled('.tmp/build-1/start/main.js')).toBe('start/main.ts');
    expect(() => compiled('dist/gone.js')).toThrow('no TypeScript source for dist/gone.js');
  });

  it('follows the simulate worker thread into the sampler, features, physics, statistics and surrogate', () => {
    const { files } = codeFingerprint(SIMULATE_CODE);
    expect(files).toEqual(
      expect.arrayContaining([
        'simulate/worker-thread.ts',
        'model/sampler/sample-homes.ts',
        'model/parameters/housing-stock.ts',
        'model/features.ts',
        'model/physics/space-conditioning.ts',
        'model/savings/cluster-statistics.ts',
        'model/health/bin-deltas.ts',
        'model/surrogate/onnx-surrogate.ts',
      ]),
    );
  });
});
