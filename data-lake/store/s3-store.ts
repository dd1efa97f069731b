import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type * as AwsS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { writeFileAtomically } from '../../lib/fs/durable-file.ts';
import { assertKey, LakeStoreError, type LakeStore, type StoredObject } from './lake-store.ts';

/**
 * How long a `get` may take before it fails. It reads small objects (CURRENT, manifests, run records) that
 * answer in milliseconds; on a connection whose network went away a request would wait for TCP to give up
 * (minutes), and a replica's poll of CURRENT with it, its /healthz still saying the store is reachable.
 */
export const GET_TIMEOUT_MS = 5_000;

/** `s3://bucket/prefix` (the prefix may be empty). */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (match === null) throw new Error(`"${url}" is not an S3 lake URL (s3://bucket or s3://bucket/prefix)`);
  const prefix = (match[2] ?? '').replace(/\/+$/, '');
  return { bucket: match[1]!, prefix: prefix === '' ? '' : `${prefix}/` };
}

type Sdk = typeof AwsS3;
let sdkLoaded: Promise<Sdk> | undefined;
/**
 * The AWS SDK, loaded at a store's first request: it is large (about 35 MB of memory and 0.1 s of a process's
 * start), and a process on a lake in a directory never needs it.
 */
const loadSdk = () => (sdkLoaded ??= import('@aws-sdk/client-s3'));

/**
 * The AWS SDK's usual settings, from the environment: credentials by its default chain (AWS_ACCESS_KEY_ID
 * and AWS_SECRET_ACCESS_KEY, a profile, an instance role), AWS_REGION, and AWS_ENDPOINT_URL_S3 or
 * AWS_ENDPOINT_URL for a store other than AWS (SeaweedFS, MinIO, Ceph), which is then addressed by path.
 */
export async function s3ClientFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<S3Client> {
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const { S3Client } = await loadSdk();
  return new S3Client({
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(endpoint === undefined ? {} : { endpoint, forcePathStyle: true }),
    // Only the checksums S3 itself requires: stores other than AWS refuse some of the SDK's newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * The lake as objects under a prefix of an S3 bucket. CURRENT is swapped with a conditional PutObject
 * (If-Match on its ETag, or If-None-Match: * while there is none); a store that answers 412 or 409 to a
 * condition it could not meet has refused the swap.
 */
export class S3Store implements LakeStore {
  readonly location: string;
  private readonly bucket: string;
  private readonly prefix: string;
  private clientMade: Promise<S3Client> | undefined;

  /** `client`: by default one from the environment (`s3ClientFromEnvironment`), made at the first request. */
  constructor(
    url: string,
    private readonly client?: S3Client,
  ) {
    ({ bucket: this.bucket, prefix: this.prefix } = parseS3Url(url));
    this.location = `s3://${this.bucket}/${this.prefix}`.replace(/\/$/, '');
  }

  async get(key: string): Promise<StoredObject | null> {
    const object = await this.send('get', key, async (client, sdk) => {
      try {
        const answer = await client.send(
          new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }),
          // The body too: the request is destroyed on abort, its body with it.
          { abortSignal: AbortSignal.timeout(GET_TIMEOUT_MS) },
        );
        return { body: Buffer.from(await answer.Body!.transformToByteArray()), version: answer.ETag! };
      } catch (error) {
        if (isStatus(sdk, error, 404)) return null;
        throw error;
      }
    });
    return object;
  }

  async put(key: string, body: string | Buffer): Promise<void> {
    await this.send('put', key, (client, sdk) =>
      client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: body })),
    );
  }

  async putIfVersion(key: string, body: string | Buffer, expected: string | null): Promise<boolean> {
    return this.send('conditional put', key, async (client, sdk) => {
      try {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: this.bucket,
            Key: this.key(key),
            Body: body,
            ...(expected === null ? { IfNoneMatch: '*' } : { IfMatch: expected }),
          }),
        );
        return true;
      } catch (error) {
        // 412: the condition failed; 409: another conditional write to the key was under way.
        if (isStatus(sdk, error, 412) || isStatus(sdk, error, 409)) return false;
        throw error;
      }
    });
  }

  async list(prefix: string): Promise<string[]> {
    return this.send('list', prefix, async (client, sdk) => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: `${this.prefix}${prefix}`,
            ...(token === undefined ? {} : { ContinuationToken: token }),
          }),
        );
        for (const object of page.Contents ?? []) keys.push(object.Key!.slice(this.prefix.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      return keys.sort();
    });
  }

  async delete(key: string): Promise<void> {
    await this.send('delete', key, (client, sdk) =>
      client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) })),
    );
  }

  async upload(key: string, file: string): Promise<void> {
    const { size } = await stat(file);
    await this.send('upload', key, (client, sdk) =>
      client.send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key(key),
          Body: createReadStream(file),
          ContentLength: size,
        }),
      ),
    );
  }

  async download(key: string, file: string): Promise<boolean> {
    return this.send('download', key, async (client, sdk) => {
      let body: Readable;
      try {
        const answer = await client.send(
          new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }),
        );
        body = answer.Body as Readable;
      } catch (error) {
        if (isStatus(sdk, error, 404)) return false;
        throw error;
      }
      await mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomically(file, async (handle) => {
        for await (const chunk of body) await handle.write(chunk as Buffer);
      });
      return true;
    });
  }

  async copy(from: string, to: string): Promise<void> {
    await this.send('copy', `${from} to ${to}`, (client, sdk) =>
      client.send(
        new sdk.CopyObjectCommand({
          Bucket: this.bucket,
          Key: this.key(to),
          CopySource: `${this.bucket}/${this.key(from).split('/').map(encodeURIComponent).join('/')}`,
        }),
      ),
    );
  }

  localPath(): null {
    return null;
  }

  private key(key: string): string {
    return `${this.prefix}${assertKey(key)}`;
  }

  /** Runs one request; a failure the caller does not handle is a LakeStoreError naming the store. */
  private async send<T>(
    operation: string,
    key: string,
    request: (client: S3Client, sdk: Sdk) => Promise<T>,
  ): Promise<T> {
    try {
      this.clientMade ??=
        this.client === undefined ? s3ClientFromEnvironment() : Promise.resolve(this.client);
      return await request(await this.clientMade, await loadSdk());
    } catch (error) {
      throw new LakeStoreError(this.location, `${operation} ${key}`, { cause: error });
    }
  }
}

function isStatus(sdk: Sdk, error: unknown, status: number): boolean {
  return error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === status;
}
