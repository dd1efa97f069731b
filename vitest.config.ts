import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import StallReporter from './test/support/stall-reporter.ts';

/**
 * The specs that start processes of their own (servers, Kafka, SeaweedFS, HAProxy, Redis, a browser, promtool, the
 * CLIs): `npm run test:process`. Every other spec runs in the test's process: `npm run test:unit`. `npm test` runs
 * both; test/test-groups.test.ts fails when a spec that starts a process is missing here.
 */
export const PROCESS_SPECS = [
  'test/bench/thread-cpu.test.ts',
  'test/data-lake/cli/lake-command-s3.test.ts',
  'test/data-lake/cli/lake.test.ts',
  'test/data-lake/cli/sql-command.test.ts',
  'test/data-lake/run-history.test.ts',
  'test/data-lake/store/s3-store.test.ts',
  'test/deploy/engines/seaweedfs.test.ts',
  'test/deploy/haproxy.test.ts',
  'test/deploy/multi-host-soak.test.ts',
  'test/deploy/netns-hosts.test.ts',
  'test/eventlog/embedded-log-recovery.test.ts',
  'test/eventlog/kafka-log.test.ts',
  'test/eventlog/open-event-log.test.ts',
  'test/lib/fs/lock-file.test.ts',
  'test/lib/log.test.ts',
  'test/serve/cli/keys-command.test.ts',
  'test/serve/cli/keys.test.ts',
  'test/serve/docs/docs-page.test.ts',
  'test/serve/explore/explore-page.test.ts',
  'test/serve/plugins/cors.test.ts',
  'test/serve/plugins/rate-limit-redis.test.ts',
  'test/serve/replica-s3.test.ts',
  'test/serve/replicas-soak.test.ts',
  'test/serve/replicas.test.ts',
  'test/serve/serve-metrics.test.ts',
  'test/simulate/cli/simulate-worker.test.ts',
  'test/simulate/simulate-code-change.test.ts',
  'test/simulate/simulate-stage-crash.test.ts',
  'test/simulate/simulate-stage-kafka.test.ts',
  'test/start/doc-commands.test.ts',
  'test/start/main.test.ts',
  'test/pipeline/cli/pipeline-command.test.ts',
  'test/pipeline/cli/refresh-command.test.ts',
  'test/pipeline/pipeline-crash.test.ts',
  'test/pipeline/pipeline-kafka-workers.test.ts',
];

/** The specs over the national data (../shared/ra-data), which a user may not have: npm run test:real-data. */
const REAL_DATA_SPECS = 'test/real-data/**';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A run whose worker hangs past vitest's own timeouts fails naming the file (test/support/stall-reporter.ts).
    reporters: ['default', new StallReporter()],
    // DuckDB and ONNX sessions are native; forks isolate them per file.
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Two files at once even on two cores (vitest's default there is one): these specs wait on DuckDB,
          // worker threads and the disk as much as they compute, and run in 155 s instead of 234 s.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          // Before the process specs, which run one file at a time after them (their figures want the cores).
          sequence: { groupOrder: 0 },
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, REAL_DATA_SPECS, ...PROCESS_SPECS],
        },
      },
      {
        extends: true,
        test: { name: 'process', include: PROCESS_SPECS, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
