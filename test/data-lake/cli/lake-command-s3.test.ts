import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { seaweedfsUnavailable } from '../../support/engines/engines.ts';
import { startSeaweedfs, type SeaweedfsServer } from '../../support/engines/seaweedfs.ts';
import { lakeCommandContract } from './lake-command-contract.ts';

// The lake commands on a lake in S3 (SeaweedFS): the same contract as on a directory.
const unavailable = seaweedfsUnavailable('the lake commands on S3');

describe.skipIf(unavailable !== undefined)('on S3', () => {
  let s3: SeaweedfsServer;
  beforeAll(async () => {
    s3 = await startSeaweedfs();
    // The AWS SDK's usual environment, as a deployment sets it.
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_REGION: 'us-east-1',
    });
  }, 60_000);
  afterAll(() => s3?.stop());
  // A lake of its own under the bucket for every test.
  lakeCommandContract('a lake in S3', () => `s3://${s3.bucket}/lake-${randomBytes(4).toString('hex')}`);
});
