import { describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/log.ts';
import { createProgress } from '../../lib/progress.ts';
import type { RemWorkUnit } from '../../schemas/rem-stage.ts';
import type { UnitRunner } from '../../simulate/worker-pool.ts';
import { readModelFiles } from '../../model/surrogate/committed-model.ts';
import { runSimulateStage } from '../../simulate/simulate-stage.ts';
import { MemoryEventLog } from '../support/memory-event-log.ts';
import { planFixtureUnits } from '../support/rem-stage/rem-lake.ts';

/** A runner of other code: it takes every unit and answers for other inputs (another fingerprint). */
const otherCodeRunner: UnitRunner = {
  concurrency: 1,
  run: async (unit: RemWorkUnit) => ({
    cluster_id: unit.cluster_id,
    fingerprint: 'f'.repeat(64),
    versions: unit.versions,
    supported: false,
    reason: 'implausible_combination',
    message: 'other code',
    samples: 0,
    excluded: {},
    evaluations: 0,
    statistics: null,
    health_bins: null,
  }),
  close: async () => undefined,
};

describe('the simulate stage when no answer comes', () => {
  it('fails after the stall timeout, naming unanswered clusters, instead of waiting for ever', async () => {
    const units = await planFixtureUnits(await readModelFiles(), { counties: 1, samples: 20 });
    const logger = createLogger('silent');
    const started = Date.now();
    await expect(
      runSimulateStage({
        log: new MemoryEventLog(),
        units,
        startRunner: async () => otherCodeRunner,
        logger,
        progress: createProgress({ logger }),
        stallTimeoutMs: 300,
      }),
    ).rejects.toThrow(
      new RegExp(
        `no new result for 0\\.3 s with ${units.length} clusters unanswered \\(e\\.g\\. ${units[0]!.cluster_id.replaceAll('|', '\\|')}`,
      ),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
