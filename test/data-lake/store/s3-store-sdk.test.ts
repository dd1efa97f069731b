import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openLake } from '../../../data-lake/lake.ts';

// The AWS SDK is large (about 35 MB and 0.1 s of a process's start): a process whose lake is a directory (a
// replica on one machine, the table-reader child of each snapshot) never loads it.
const sdk = vi.hoisted(() => ({ loaded: false }));
vi.mock('@aws-sdk/client-s3', async (importOriginal) => {
  sdk.loaded = true;
  return importOriginal();
});

describe('the AWS SDK of the lake in S3', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('is never loaded by a lake in a directory, and loaded at an S3 lake’s first request', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 's3-sdk-'));
    dirs.push(dir);
    const local = openLake({ LAKE_DIR: dir });
    await local.store.put('CURRENT', 's1');
    expect((await local.store.get('CURRENT'))?.body.toString()).toBe('s1');
    // Opening a lake in S3 makes no request yet.
    const remote = openLake({ LAKE_DIR: dir, LAKE_URL: 's3://lake/prod' });
    expect(sdk.loaded).toBe(false);

    // Nothing listens on port 9 here: the request is refused, once the SDK is loaded to make it.
    vi.stubEnv('AWS_ENDPOINT_URL_S3', 'http://127.0.0.1:9');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
    vi.stubEnv('AWS_MAX_ATTEMPTS', '1');
    await expect(remote.store.get('CURRENT')).rejects.toThrow(
      'lake store s3://lake/prod: get CURRENT failed',
    );
    expect(sdk.loaded).toBe(true);
  });
});
