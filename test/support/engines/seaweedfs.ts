import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { freePorts, spawnOn, THIS_MACHINE, type Placement } from '../processes.ts';
import { WEED } from './engines.ts';

/** A running SeaweedFS S3 endpoint and the one bucket it was started with. */
export interface SeaweedfsServer {
  /** `http://<address>:<port>` (127.0.0.1 by default): path-style S3 (`forcePathStyle: true`), any region. */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Created, empty. */
  bucket: string;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

/**
 * Starts one SeaweedFS server (`weed mini`: master, volume server, filer and S3 gateway in one process, from
 * deploy/engines/install.sh) on free ports of 127.0.0.1 (or `placement`'s address, its command prefixed as
 * that says), with its data in a new temporary folder,
 * credentials of its own (an admin identity from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY in its
 * environment) and `bucket` created; resolves once S3 requests succeed, in about 4 s. Its log is
 * `weed.log` in the data folder, quoted when it fails to start.
 *
 *   const s3 = await startSeaweedfs();
 *   const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true,
 *     credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
 *   ...
 *   await s3.stop();
 *
 * Check `seaweedfsUnavailable` (./engines.ts) before, as the specs check it for Kafka.
 */
export async function startSeaweedfs({
  bucket = 'lake',
  placement = THIS_MACHINE,
}: { bucket?: string; placement?: Placement } = {}): Promise<SeaweedfsServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'seaweedfs-'));
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc, admin, adminGrpc] =
    await freePorts(10);
  const accessKeyId = `test${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(20).toString('hex');
  const logFile = path.join(dir, 'weed.log');
  const child = spawnOn(
    placement,
    WEED,
    [
      'mini',
      `-dir=${dir}`,
      `-ip=${placement.address}`,
      `-ip.bind=${placement.address}`,
      '-master.telemetry=false',
      // Every port its own free one, so specs running side by side never meet.
      `-master.port=${master}`,
      `-master.port.grpc=${masterGrpc}`,
      `-volume.port=${volume}`,
      `-volume.port.grpc=${volumeGrpc}`,
      `-filer.port=${filer}`,
      `-filer.port.grpc=${filerGrpc}`,
      `-filer.localSocket=${path.join(dir, 'filer.sock')}`,
      `-s3.port=${s3}`,
      `-s3.port.grpc=${s3Grpc}`,
      `-s3.localSocket=${path.join(dir, 's3.sock')}`,
      // What mini also starts and the specs do not use: off where it can be, on free ports where not.
      '-webdav=false',
      '-admin.ui=false',
      `-admin.port=${admin}`,
      `-admin.port.grpc=${adminGrpc}`,
      '-admin.port.legacy=0',
      '-s3.port.iceberg=0',
      '-s3.port.lance=0',
    ],
    {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        AWS_ACCESS_KEY_ID: accessKeyId,
        AWS_SECRET_ACCESS_KEY: secretAccessKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const log = createWriteStream(logFile);
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const stop = async () => {
    // SIGKILL: its data is removed anyway, and an orderly shutdown takes seconds.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    // Its gRPC servers also listen on Unix sockets named after their ports, always in /tmp.
    await Promise.all(
      [
        `seaweedfs-master-grpc-${masterGrpc}`,
        `seaweedfs-volume-grpc-${volumeGrpc}`,
        `seaweedfs-filer-grpc-${filerGrpc}`,
        `seaweedfs-s3-grpc-${s3Grpc}`,
        `seaweedfs-admin-grpc-${adminGrpc}`,
      ].map((name) => rm(`/tmp/${name}.sock`, { force: true })),
    );
    await rm(dir, { recursive: true, force: true });
  };

  const endpoint = `http://${placement.address}:${s3}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 30_000;
  try {
    // The gateway answers before the filer and a volume are ready; the bucket's creation is the readiness check.
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`weed exited (${child.exitCode ?? child.signalCode})`);
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        break;
      } catch (error) {
        // An attempt that created it but whose answer was lost.
        if ((error as Error).name === 'BucketAlreadyOwnedByYou') break;
        if (Date.now() > deadline)
          throw new Error('SeaweedFS did not create a bucket in 30 s', { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } catch (error) {
    const tail = (await readFile(logFile, 'utf8').catch(() => '')).slice(-3000);
    await stop();
    throw new Error(`${(error as Error).message}; its log ends:\n${tail}`, { cause: error });
  } finally {
    client.destroy();
  }
  return { endpoint, accessKeyId, secretAccessKey, bucket, stop };
}
