import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { EmbeddedEventLog } from '../../ingest/eventlog/embedded-log.ts';
import { describeEventLogContract } from './event-log-contract.ts';

const root = await mkdtemp(path.join(tmpdir(), 'eventlog-contract-'));
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeEventLogContract('embedded', (store) => EmbeddedEventLog.open({ directory: path.join(root, store) }));
