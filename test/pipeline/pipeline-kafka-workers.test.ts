import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import { REM_CLUSTER_STATISTICS, REM_CLUSTERS } from '../../data-lake/tables/rem.ts';
import { defaultDefinitions } from '../../pipeline/definitions.ts';
import { snapshotDir } from '../../data-lake/lake-paths.ts';
import { runPipeline } from '../../pipeline/run-pipeline.ts';
import { SIMULATE_GROUP } from '../../simulate/simulate-stage.ts';
import { kafkaUnavailable } from '../support/engines/engines.ts';
import { startKafkaCluster, type KafkaCluster } from '../support/engines/kafka-cluster.ts';
import { startWorker } from '../support/simulate-worker-process.ts';

// The Kafka topology end to end: `npm run pipeline` with KAFKA_BROKERS set (a real 3-broker Apache Kafka cluster)
// and two `npm run simulate:worker` processes, one killed with SIGKILL while it holds units, and then the broker
// coordinating the simulate group killed too, against the embedded run of the same sample data. Rhode Island's
// 100 clusters at 10 homes each keep both runs to about a minute.
const SETTINGS = {
  AS_OF_DATE: '2026-06-01',
  REM_STATES: 'RI',
  HEALTH_STATES: 'none',
  REM_SAMPLES: '10',
  LOG_LEVEL: 'silent',
  // The pipeline's own member of the simulate group: one thread, so the worker processes take most units.
  SIMULATE_WORKERS: '1',
  // A stage that stalls fails naming its clusters well within the spec's time (the default is its 10 min).
  SIMULATE_STALL_TIMEOUT_MS: '120000',
};
const TOPIC_PREFIX = 'e2e.';

const unavailable = kafkaUnavailable('the pipeline on Kafka with simulate workers');
let cluster: KafkaCluster;
const lakes: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
beforeAll(async () => {
  if (unavailable === undefined) cluster = await startKafkaCluster();
}, 120_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await cluster?.stop();
  await Promise.all(lakes.map((lake) => rm(lake, { recursive: true, force: true })));
});

/**
 * One pipeline run over the sample data into a new lake; resolves to the published snapshot's directory.
 * Its warnings and errors (kafkajs's among them) go to `warnings` when given.
 */
async function publishSnapshot(
  env: Record<string, string>,
  warnings?: Record<string, unknown>[],
): Promise<string> {
  const lakeDir = await mkdtemp(path.join(tmpdir(), 'pipeline-kafka-'));
  lakes.push(lakeDir);
  const config = loadConfig({ ...SETTINGS, LAKE_DIR: lakeDir, ...env });
  const result = await runPipeline({
    config,
    logger:
      warnings === undefined
        ? createLogger('silent')
        : createLogger('warn', 'pipeline', {
            write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>),
          }),
    // An empty environment: the sample data, whatever source overrides the developer has set.
    definitions: await defaultDefinitions(config, {}),
    codeVersion: 'e2e-test',
  });
  expect(result.status).toBe('published');
  return snapshotDir(lakeDir, result.snapshotId);
}

/**
 * The last `count` of a process's log entries, each its message and error in at most 240 characters: what a
 * failure says of a process, short enough to stay in the end of a CI log, which is all that is kept of it.
 */
function lastLines(entries: readonly Record<string, unknown>[], count: number): string {
  return entries
    .slice(-count)
    .map(({ msg, error, err }) => {
      const reason = error ?? (err as { message?: unknown } | undefined)?.message;
      const line = reason === undefined ? String(msg) : `${String(msg)}: ${String(reason)}`;
      return `  ${line.replaceAll('\n', ' ').slice(0, 240)}`;
    })
    .join('\n');
}

/** Rows of `table` in `a` and not in `b` (a multiset difference), and the reverse, through DuckDB. */
async function tableDifference(a: string, b: string, table: string) {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    const file = (dir: string) => `read_parquet('${path.join(dir, `${table}.parquet`)}')`;
    const count = async (sql: string) =>
      Number((await (await db.runAndReadAll(sql)).getRowObjectsJson())[0]!.n);
    return {
      rows: await count(`SELECT count(*) AS n FROM ${file(a)}`),
      onlyInA: await count(
        `SELECT count(*) AS n FROM (SELECT * FROM ${file(a)} EXCEPT ALL SELECT * FROM ${file(b)})`,
      ),
      onlyInB: await count(
        `SELECT count(*) AS n FROM (SELECT * FROM ${file(b)} EXCEPT ALL SELECT * FROM ${file(a)})`,
      ),
      repeatedClusters: await count(
        `SELECT count(*) AS n FROM (SELECT cluster_id FROM ${file(a)} GROUP BY cluster_id HAVING count(*) > 1)`,
      ),
    };
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

describe.skipIf(unavailable !== undefined)(
  'the pipeline on Kafka with two simulate:worker processes, one killed mid-stage, and a broker killed',
  () => {
    it('publishes every REM cluster exactly once, equal to the embedded run’s', async () => {
      const kafka = { KAFKA_BROKERS: cluster.bootstrap, KAFKA_TOPIC_PREFIX: TOPIC_PREFIX };
      const workerEnv = { ...SETTINGS, LOG_LEVEL: 'info', ...kafka };
      const doomed = startWorker(workerEnv, children);
      const survivor = startWorker(workerEnv, children);
      await Promise.all([
        doomed.logged(/joining the simulate group/),
        survivor.logged(/joining the simulate group/),
      ]);

      // Should the run fail, its error says what the pipeline and each worker said last.
      const warnings: Record<string, unknown>[] = [];
      const said = () =>
        [
          `the pipeline's last warnings:\n${lastLines(warnings, 12)}`,
          ...Object.entries({ doomed, survivor }).map(
            ([name, worker]) =>
              `the ${name} worker's last lines:\n${lastLines(worker.entries, 10)}` +
              `\n  stderr: ${worker.stderr().slice(-400)}`,
          ),
        ].join('\n');
      const started = Date.now();
      const kafkaRun = publishSnapshot(kafka, warnings).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}\n${said()}`, { cause: error });
      });
      // Killed once its first results are on the log, with the rest of its batch uncommitted in hand.
      await Promise.race([
        doomed.logged(/units computed/),
        kafkaRun.then(() => {
          throw new Error('the run finished before the worker to be killed had computed a unit');
        }),
      ]);
      doomed.child.kill('SIGKILL');
      expect(await doomed.exited).toBeNull();
      // Then the broker the group's members report to, mid-stage: the group must find a new coordinator and
      // the partitions it led new leaders, while the survivor and the pipeline go on with two brokers.
      const coordinator = await cluster.coordinatorOf(`${TOPIC_PREFIX}${SIMULATE_GROUP}`);
      const brokerKilled = Date.now();
      await cluster.kill(coordinator);
      const kafkaSnapshot = await kafkaRun;
      const finished = Date.now();
      const computed = survivor.times.filter((_, i) => /units computed/.test(survivor.lines[i]!));
      expect(computed.length).toBeGreaterThan(0);
      survivor.child.kill('SIGTERM');
      // It leaves with a broker still down: it must exit, not keep retrying the dead broker.
      const leaving = delay(30_000).then(() => 'still running 30 s after SIGTERM');
      expect(await Promise.race([survivor.exited, leaving])).toBe(0);
      // How long the survivor published no results across the broker's death, and when the run ended.
      const before = computed.filter((time) => time <= brokerKilled).at(-1) ?? started;
      const after = computed.find((time) => time > brokerKilled);
      const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      console.log(
        `pipeline on Kafka: ${seconds(finished - started)}; broker ${coordinator} (the simulate group's ` +
          `coordinator) killed at ${seconds(brokerKilled - started)}; the surviving worker published no results ` +
          `for ${after === undefined ? 'the rest of the run' : seconds(after - before)} across it; the run ` +
          `finished ${seconds(finished - brokerKilled)} after it`,
      );

      const embeddedSnapshot = await publishSnapshot({});
      expect(await tableDifference(kafkaSnapshot, embeddedSnapshot, REM_CLUSTERS.name)).toEqual({
        rows: 100,
        onlyInA: 0,
        onlyInB: 0,
        repeatedClusters: 0,
      });
      const statistics = await tableDifference(kafkaSnapshot, embeddedSnapshot, REM_CLUSTER_STATISTICS.name);
      expect(statistics).toMatchObject({ onlyInA: 0, onlyInB: 0 });
      expect(statistics.rows).toBeGreaterThan(100);
    }, 600_000);
  },
);
