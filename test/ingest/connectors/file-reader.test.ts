import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { contentHash, sha256Hex } from '../../../ingest/connectors/content-hash.ts';
import { ChecksumError } from '../../../ingest/connectors/read-ledger.ts';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import { SourcePathError } from '../../../ingest/connectors/source-path.ts';

const programs = '[{"id":"ky-heat-pump","name":"Heat pump rebate"}]';
const incentives = '[{"id":"ky-1","program":"ky-heat-pump","amount":{"type":"dollar_amount","number":500}}]';

let root: string;

it.beforeEach(async ({ tempDir }) => {
  root = tempDir;
  await mkdir(path.join(root, 'data', 'KY'), { recursive: true });
  await writeFile(path.join(root, 'data', 'KY', 'programs.json'), programs);
  await writeFile(path.join(root, 'data', 'KY', 'incentives.json'), incentives);
});

describe('file reader over a directory', () => {
  it('reads files by paths relative to the directory and records each one read', async () => {
    const reader = createFileReader(root);

    expect((await reader.read('data/KY/programs.json'))?.toString()).toBe(programs);
    expect((await reader.read('./data//KY/incentives.json'))?.toString()).toBe(incentives);

    expect(reader.location).toBe(path.resolve(root));
    expect(reader.filesRead()).toEqual([
      { path: 'data/KY/incentives.json', bytes: incentives.length, sha256: sha256Hex(incentives) },
      { path: 'data/KY/programs.json', bytes: programs.length, sha256: sha256Hex(programs) },
    ]);
  });

  it('answers null for a file the source does not have, and records nothing for it', async () => {
    const reader = createFileReader(root);

    expect(await reader.read('data/TX/programs.json')).toBeNull();
    expect(await reader.read('data/KY/programs.json/extra')).toBeNull();
    expect(reader.filesRead()).toEqual([]);
  });

  it('refuses paths that leave the directory', async () => {
    const reader = createFileReader(path.join(root, 'data'));

    await expect(reader.read('../data/KY/programs.json')).rejects.toThrow(SourcePathError);
    await expect(reader.read('KY/../../secret')).rejects.toThrow('path "KY/../../secret" is not inside');
    await expect(reader.read('/etc/passwd')).rejects.toThrow(SourcePathError);
    await expect(reader.read('KY\\..\\..\\secret')).rejects.toThrow(SourcePathError);
    expect((await reader.read('KY/../KY/programs.json'))?.toString()).toBe(programs);
  });

  it('gives the same content version whatever order the files were read in', async () => {
    const first = createFileReader(root);
    await first.read('data/KY/programs.json');
    await first.read('data/KY/incentives.json');
    const second = createFileReader(root);
    await second.read('data/KY/incentives.json');
    await second.read('data/KY/programs.json');

    expect(contentHash(first.filesRead())).toBe(contentHash(second.filesRead()));
    expect(contentHash(first.filesRead())).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('file reader over a single file', () => {
  const file = () => path.join(root, 'data', 'KY', 'programs.json');

  it('reads the file itself at path ""', async () => {
    const reader = createFileReader(file());

    expect((await reader.read(''))?.toString()).toBe(programs);
    expect(reader.filesRead()).toEqual([{ path: '', bytes: programs.length, sha256: sha256Hex(programs) }]);
  });

  it('accepts the file when its declared SHA-256 matches, in either case', async () => {
    const reader = createFileReader(file(), { sha256: sha256Hex(programs).toUpperCase() });

    expect((await reader.read(''))?.toString()).toBe(programs);
  });

  it('rejects the file when its declared SHA-256 does not match', async () => {
    const reader = createFileReader(file(), { sha256: sha256Hex('something else') });

    await expect(reader.read('')).rejects.toThrow(ChecksumError);
    await expect(reader.read('')).rejects.toThrow(
      `SHA-256 mismatch for ${file()}: expected ${sha256Hex('something else')}, got ${sha256Hex(programs)}`,
    );
    expect(reader.filesRead()).toEqual([]);
  });

  it('answers null when the file does not exist', async () => {
    const reader = createFileReader(path.join(root, 'missing.json'));

    expect(await reader.read('')).toBeNull();
  });
});
