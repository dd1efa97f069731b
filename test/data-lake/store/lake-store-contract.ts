import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LakeStore } from '../../../data-lake/store/lake-store.ts';

/**
 * What every LakeStore back end must do, run against each (a directory, SeaweedFS over S3): the pipeline,
 * the lake commands and the replicas rely on exactly these behaviours. `open` gives a new, empty store.
 */
export function lakeStoreContract(
  name: string,
  open: () => Promise<{ store: LakeStore; close(): Promise<void> }>,
) {
  describe(`LakeStore contract: ${name}`, () => {
    let store: LakeStore;
    let close: () => Promise<void>;
    let scratch: string;
    beforeAll(async () => {
      ({ store, close } = await open());
      scratch = await mkdtemp(path.join(tmpdir(), 'lake-store-contract-'));
    });
    afterAll(async () => {
      await close();
      await rm(scratch, { recursive: true, force: true });
    });

    it('gets what was put, with a version that changes with the bytes, and null for a missing key', async () => {
      expect(await store.get('runs/none.json')).toBeNull();
      await store.put('runs/a.json', '{"outcome":"running"}\n');
      const first = await store.get('runs/a.json');
      expect(first?.body.toString()).toBe('{"outcome":"running"}\n');
      await store.put('runs/a.json', Buffer.from('{"outcome":"published"}\n'));
      const second = await store.get('runs/a.json');
      expect(second?.body.toString()).toBe('{"outcome":"published"}\n');
      expect(second?.version).not.toBe(first?.version);
    });

    it('swaps an object only from the version it was read at, and creates one only where there is none', async () => {
      expect(await store.putIfVersion('CURRENT', 'snap-1\n', null)).toBe(true);
      expect(await store.putIfVersion('CURRENT', 'snap-x\n', null)).toBe(false);
      const one = (await store.get('CURRENT'))!;
      expect(await store.putIfVersion('CURRENT', 'snap-2\n', one.version)).toBe(true);
      // A writer still holding the first version lost: nothing of its write is there.
      expect(await store.putIfVersion('CURRENT', 'snap-3\n', one.version)).toBe(false);
      expect((await store.get('CURRENT'))!.body.toString()).toBe('snap-2\n');
    });

    it('lets exactly one of many writers racing from one version win', async () => {
      await store.put('race', 'start\n');
      const seen = (await store.get('race'))!.version;
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.putIfVersion('race', `writer-${i}\n`, seen)),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const winner = outcomes.indexOf(true);
      expect((await store.get('race'))!.body.toString()).toBe(`writer-${winner}\n`);
    });

    it('lists keys under a prefix at any depth, sorted, and forgets deleted ones', async () => {
      for (const key of [
        'snapshots/s2/manifest.json',
        'snapshots/s1/zips.parquet',
        'snapshots/s1/manifest.json',
      ])
        await store.put(key, key);
      await store.put('snapshots-other', 'not under snapshots/');
      expect(await store.list('snapshots/')).toEqual([
        'snapshots/s1/manifest.json',
        'snapshots/s1/zips.parquet',
        'snapshots/s2/manifest.json',
      ]);
      expect(await store.list('snapshots/s1/')).toEqual([
        'snapshots/s1/manifest.json',
        'snapshots/s1/zips.parquet',
      ]);
      await store.delete('snapshots/s1/zips.parquet');
      await store.delete('snapshots/never-there');
      expect(await store.list('snapshots/s1/')).toEqual(['snapshots/s1/manifest.json']);
    });

    it('uploads, downloads and copies files of several megabytes byte for byte', async () => {
      const bytes = Buffer.alloc(5 * 1024 * 1024 + 17);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 11)) & 0xff;
      const source = path.join(scratch, 'table.parquet');
      await writeFile(source, bytes);
      await store.upload('snapshots/s3/table.parquet', source);
      await store.copy('snapshots/s3/table.parquet', 'snapshots/s4/table.parquet');
      const target = path.join(scratch, 'copied.parquet');
      expect(await store.download('snapshots/s4/table.parquet', target)).toBe(true);
      expect((await readFile(target)).equals(bytes)).toBe(true);
      expect(await store.download('snapshots/s4/none.parquet', path.join(scratch, 'none'))).toBe(false);
    });

    it('refuses keys that could leave the lake', async () => {
      await expect(store.get('../outside')).rejects.toThrow();
      await expect(store.put('snapshots//x', 'x')).rejects.toThrow();
    });
  });
}
