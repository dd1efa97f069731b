import { GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seaweedfsUnavailable } from '../../support/engines/engines.ts';
import { startSeaweedfs, type SeaweedfsServer } from '../../support/engines/seaweedfs.ts';

// What a lake on object storage needs of SeaweedFS (deploy/engines/install.sh): PutObject that writes only if
// the key is absent (If-None-Match: *) or still holds the ETag read before (If-Match), checked atomically,
// so of two writers racing for one key exactly one wins and the other is told so.
const unavailable = seaweedfsUnavailable('the SeaweedFS conditional-write specs');

describe.skipIf(unavailable !== undefined)('SeaweedFS conditional PutObject', () => {
  let server: SeaweedfsServer;
  let writers: [S3Client, S3Client];
  beforeAll(async () => {
    const started = Date.now();
    server = await startSeaweedfs();
    console.log(`SeaweedFS started in ${Date.now() - started} ms`);
    // Two clients, as two processes committing to one lake would have.
    const client = () =>
      new S3Client({
        endpoint: server.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
        // One attempt: a retried conditional put would meet its own first write and fail for that reason.
        maxAttempts: 1,
      });
    writers = [client(), client()];
  }, 60_000);
  afterAll(async () => {
    for (const writer of writers ?? []) writer.destroy();
    await server?.stop();
  });

  const put = (
    writer: S3Client,
    key: string,
    body: string,
    condition: { IfMatch?: string; IfNoneMatch?: string },
  ) => writer.send(new PutObjectCommand({ Bucket: server.bucket, Key: key, Body: body, ...condition }));
  /** The HTTP status a put ended with: 200, or the status of the error the server answered. */
  const statusOf = async (request: Promise<unknown>): Promise<number> => {
    try {
      await request;
      return 200;
    } catch (error) {
      if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode ?? 0;
      throw error;
    }
  };
  const read = async (key: string) => {
    const answer = await writers[0].send(new GetObjectCommand({ Bucket: server.bucket, Key: key }));
    return { body: await answer.Body!.transformToString(), etag: answer.ETag! };
  };
  /** 412 Precondition Failed, or 409 Conflict, which S3 answers to a conditional write racing another. */
  const LOST = [409, 412];

  it('If-None-Match: * writes a key that is absent and refuses one that exists', async () => {
    expect(await statusOf(put(writers[0], 'create/once', 'first', { IfNoneMatch: '*' }))).toBe(200);
    expect(LOST).toContain(await statusOf(put(writers[1], 'create/once', 'second', { IfNoneMatch: '*' })));
    expect((await read('create/once')).body).toBe('first');
  });

  it('If-Match writes over the ETag it names and refuses a stale one', async () => {
    const first = await put(writers[0], 'swap/pointer', 'v1', {});
    const second = await put(writers[0], 'swap/pointer', 'v2', { IfMatch: first.ETag! });
    expect(second.ETag).not.toBe(first.ETag);
    expect(LOST).toContain(await statusOf(put(writers[1], 'swap/pointer', 'v3', { IfMatch: first.ETag! })));
    expect(await read('swap/pointer')).toEqual({ body: 'v2', etag: second.ETag });
  });

  it('lets exactly one of two concurrent writers create a key, 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const key = `race/create-${round}`;
      const statuses = await Promise.all(
        writers.map((writer, i) => statusOf(put(writer, key, `writer ${i}`, { IfNoneMatch: '*' }))),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(LOST).toContain(statuses.find((status) => status !== 200));
      expect((await read(key)).body).toBe(`writer ${statuses.indexOf(200)}`);
    }
  });

  it('lets exactly one of two concurrent writers replace the version both read, 20 times over', async () => {
    const key = 'race/pointer';
    await put(writers[0], key, 'start', {});
    for (let round = 0; round < 20; round++) {
      const { etag } = await read(key);
      const statuses = await Promise.all(
        writers.map((writer, i) =>
          statusOf(put(writer, key, `round ${round} writer ${i}`, { IfMatch: etag })),
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(LOST).toContain(statuses.find((status) => status !== 200));
      expect((await read(key)).body).toBe(`round ${round} writer ${statuses.indexOf(200)}`);
    }
  });
});
