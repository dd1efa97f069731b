import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { EmbeddedEventLog } from '../../eventlog/embedded-log.ts';
import { describeEventLogContract } from './event-log-contract.ts';
import { interleavedRecords } from './envelopes.ts';

let root: string;
it.beforeAll(({ fileTempDir }) => {
  root = fileTempDir;
});

describeEventLogContract('embedded', (store) => EmbeddedEventLog.open({ directory: path.join(root, store) }));

describe('the embedded log with a consume member', () => {
  it('refuses to drain or reset the group meanwhile, and allows both once the member has left', async () => {
    const log = await EmbeddedEventLog.open({ directory: path.join(root, 'busy-group') });
    try {
      await log.publish('units', interleavedRecords('unit', 2, 1));
      const controller = new AbortController();
      let handled = 0;
      const consuming = log.consume({
        groupId: 'workers',
        topics: ['units'],
        signal: controller.signal,
        onBatch: async (batch) => void (handled += batch.length),
      });
      while (handled < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      const drain = log.drain({ groupId: 'workers', topics: ['units'], onBatch: async () => {} });

      await expect(drain).rejects.toThrow('consumer group workers has active consume members');
      await expect(log.resetGroup('workers', ['units'])).rejects.toThrow(
        'consumer group workers has active consume members',
      );
      controller.abort();
      expect(await consuming).toBe(2);
      await log.resetGroup('workers', ['units']);
      expect(await log.drain({ groupId: 'workers', topics: ['units'], onBatch: async () => {} })).toBe(2);
    } finally {
      await log.close();
    }
  });
});
