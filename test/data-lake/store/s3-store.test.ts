import { createServer, type Socket } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { LakeStoreError } from '../../../data-lake/store/lake-store.ts';
import { GET_TIMEOUT_MS, parseS3Url, S3Store } from '../../../data-lake/store/s3-store.ts';
import { seaweedfsUnavailable } from '../../support/engines/engines.ts';
import { startSeaweedfs } from '../../support/engines/seaweedfs.ts';
import { lakeStoreContract } from './lake-store-contract.ts';

describe('parseS3Url', () => {
  it('reads a bucket and a prefix, which keys go under', () => {
    expect(parseS3Url('s3://electrify-lake')).toEqual({ bucket: 'electrify-lake', prefix: '' });
    expect(parseS3Url('s3://electrify-lake/prod/lake/')).toEqual({
      bucket: 'electrify-lake',
      prefix: 'prod/lake/',
    });
  });
  it('refuses what is not an S3 URL, saying what one looks like', () => {
    expect(() => parseS3Url('https://electrify-lake/prod')).toThrow(
      '"https://electrify-lake/prod" is not an S3 lake URL (s3://bucket or s3://bucket/prefix)',
    );
  });
});

describe('a store that stops answering', () => {
  it(`fails a get after ${GET_TIMEOUT_MS / 1000} s instead of waiting for the network`, async () => {
    // Takes connections and requests, answers none: a store on the far side of a network that lost its route.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    try {
      const started = performance.now();
      const read = new S3Store('s3://lake', client).get('CURRENT');
      await expect(read).rejects.toThrow(LakeStoreError);
      await expect(read).rejects.toThrow('lake store s3://lake: get CURRENT failed');
      expect(performance.now() - started).toBeGreaterThanOrEqual(GET_TIMEOUT_MS - 50);
      expect(performance.now() - started).toBeLessThan(GET_TIMEOUT_MS + 2_000);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  });
});

const unavailable = seaweedfsUnavailable('the S3 lake store specs');
describe.skipIf(unavailable !== undefined)('on SeaweedFS', () => {
  lakeStoreContract('S3 (SeaweedFS)', async () => {
    const s3 = await startSeaweedfs();
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    // Under a prefix, as a deployment would share a bucket.
    return { store: new S3Store(`s3://${s3.bucket}/prod/lake`, client), close: () => s3.stop() };
  });
});
