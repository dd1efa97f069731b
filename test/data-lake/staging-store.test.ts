import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import type { SourceVersionPayload } from '../../schemas/envelope.ts';
import { StagingStore, type StagingEntry } from '../../data-lake/staging-store.ts';

function entry(offset: number, key: string, priceUsd: unknown, reason?: string): StagingEntry {
  return {
    source: 'demo',
    sourceVersion: 'v1',
    schema: 'demo-price',
    key,
    partition: 0,
    offset: String(offset),
    payload: { item: key, priceUsd },
    ...(reason === undefined ? { status: 'accepted' as const } : { status: 'quarantined' as const, reason }),
  };
}

const deliveries = [
  entry(0, 'stove/NY', 1750),
  entry(1, 'heat-pump/CA', 14250.5),
  entry(2, 'dryer/TX', 'n/a', 'priceUsd: Invalid input: expected number, received string'),
  entry(3, 'boiler/CA', 9000),
];

async function stagedFiles(store: StagingStore): Promise<Record<string, string>> {
  const versionDir = path.join(store.dir, 'demo', 'v1');
  const names = (await readdir(versionDir))
    .filter((n) => n.endsWith('.ndjson') || n.endsWith('.json'))
    .sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await readFile(path.join(versionDir, n), 'utf8')])),
  );
}

describe('StagingStore', () => {
  it('compacts delivered batches into key-sorted accepted and quarantined files with counts', async ({
    tempDir: dir,
  }) => {
    const store = new StagingStore(dir);
    await store.writeBatch('demo-prices', deliveries);
    await store.compact();

    expect(await store.accepted('demo', 'v1', 'demo-price')).toEqual([
      { key: 'boiler/CA', payload: { item: 'boiler/CA', priceUsd: 9000 } },
      { key: 'heat-pump/CA', payload: { item: 'heat-pump/CA', priceUsd: 14250.5 } },
      { key: 'stove/NY', payload: { item: 'stove/NY', priceUsd: 1750 } },
    ]);
    expect(await store.quarantined('demo', 'v1', 'demo-price')).toEqual([
      {
        key: 'dryer/TX',
        reason: 'priceUsd: Invalid input: expected number, received string',
        payload: { item: 'dryer/TX', priceUsd: 'n/a' },
      },
    ]);
    expect((await stagedFiles(store))['counts.json']).toBe('{"demo-price":{"accepted":3,"quarantined":1}}\n');
    expect(await readdir(path.join(dir, 'demo', 'v1'))).not.toContain('segments');
  });

  it('stages the same bytes however deliveries were batched or repeated (at-least-once delivery)', async ({
    tempDir: dir,
  }) => {
    const once = new StagingStore(path.join(dir, 'once'));
    await once.writeBatch('demo-prices', deliveries);
    await once.compact();

    const repeated = new StagingStore(path.join(dir, 'repeated'));
    await repeated.writeBatch('demo-prices', deliveries.slice(0, 3));
    await repeated.compact();
    // The consumer died before committing: the log delivers from offset 1 again, in other batches.
    await repeated.writeBatch('demo-prices', deliveries.slice(1, 2));
    await repeated.writeBatch('demo-prices', deliveries.slice(2));
    await repeated.compact();

    expect(await stagedFiles(repeated)).toEqual(await stagedFiles(once));
  });

  it('keeps the latest verdict for a key delivered again', async ({ tempDir: dir }) => {
    const store = new StagingStore(dir);
    await store.writeBatch('demo-prices', [entry(5, 'dryer/TX', 'n/a', 'priceUsd: bad')]);
    await store.compact();
    await store.writeBatch('demo-prices', [entry(9, 'dryer/TX', 800)]);
    await store.compact();

    expect(await store.accepted('demo', 'v1', 'demo-price')).toEqual([
      { key: 'dryer/TX', payload: { item: 'dryer/TX', priceUsd: 800 } },
    ]);
    expect(await store.quarantined('demo', 'v1', 'demo-price')).toEqual([]);
  });

  it('records source-version events and reports each version with its event offset and counts', async ({
    tempDir: dir,
  }) => {
    const event: SourceVersionPayload = {
      source: 'demo',
      kind: 'demo-prices',
      location: '/data/demo',
      version: 'v1',
      contentHash: 'abc',
      fetchedAt: '2026-11-21T16:00:00.000Z',
      recordCounts: { 'demo-price': 4 },
      files: [{ path: 'prices.csv', bytes: 120, sha256: 'def' }],
    };
    const store = new StagingStore(dir);
    await store.writeBatch('demo-prices', deliveries);
    await store.writeSourceVersion(event, '17');
    await store.compact();

    expect(await store.versions()).toEqual([
      {
        source: 'demo',
        version: 'v1',
        eventOffset: 17n,
        event,
        counts: { 'demo-price': { accepted: 3, quarantined: 1 } },
      },
    ]);
  });

  it('keeps odd source and version names inside the staging directory', async ({ tempDir: dir }) => {
    const store = new StagingStore(dir);
    await store.writeBatch('t', [{ ...entry(0, 'k', 1), source: '../escape', sourceVersion: '..' }]);
    await store.compact();

    expect(await readdir(dir)).toEqual(['%2E.%2Fescape']);
    expect(await store.accepted('../escape', '..', 'demo-price')).toEqual([
      { key: 'k', payload: { item: 'k', priceUsd: 1 } },
    ]);
    expect((await store.versions()).map((v) => [v.source, v.version])).toEqual([['../escape', '..']]);
  });

  it('removes a version as a whole: one half-deleted by a crash is invisible and cleaned up', async ({
    tempDir: dir,
  }) => {
    const store = new StagingStore(dir);
    await store.writeBatch('demo-prices', deliveries);
    await store.writeBatch('demo-prices', [{ ...entry(4, 'dryer/TX', 800), sourceVersion: 'v2' }]);
    await store.compact();
    await store.removeVersion('demo', 'v1');
    expect(await readdir(path.join(dir, 'demo'))).toEqual(['v2']);

    await mkdir(path.join(dir, 'demo', 'v2.tmp-deleting'));
    await writeFile(path.join(dir, 'demo', 'v2.tmp-deleting', 'counts.json'), '{}');
    expect((await store.versions()).map((v) => v.version)).toEqual(['v2']);
    await store.removeLeftovers();
    expect(await readdir(path.join(dir, 'demo'))).toEqual(['v2']);
  });
});
