import { once } from 'node:events';
import { setTimeout } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

// patches/kafkajs+2.2.4.patch, applied by `npm install` (patch-package): without it, a kafkajs consumer stopped
// while its fetchers rebuild after a broker left spins in one microtask loop for ever, and nothing else in the
// process runs again (it hung the Kafka workers spec in CI). The scenario runs in a worker thread, which can be
// terminated even while it spins.
describe('kafkajs, as patched on install', () => {
  it('stops a consumer whose fetchers rebuild as it stops, and the event loop runs on', async () => {
    const worker = new Worker(new URL('./fixtures/kafkajs-stop-race.mjs', import.meta.url));
    try {
      const outcome = await Promise.race([
        once(worker, 'message').then(([message]) => message as string),
        once(worker, 'error').then(([error]) => `failed: ${(error as Error).message}`),
        setTimeout(10_000, 'still spinning after 10 s'),
      ]);
      expect(outcome).toBe('stopped');
    } finally {
      await worker.terminate();
    }
  });
});
