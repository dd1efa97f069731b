import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openLake, snapshotCacheDir } from '../../data-lake/lake.ts';
import { REM_RESULTS_TOPIC, REM_WORK_UNITS_TOPIC } from '../../schemas/rem-stage.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import { kafkaUnavailable, seaweedfsUnavailable } from '../support/engines/engines.ts';
import { startKafkaCluster, type KafkaCluster } from '../support/engines/kafka-cluster.ts';
import { startSeaweedfs, type SeaweedfsServer } from '../support/engines/seaweedfs.ts';
import { startLoggedProcess, type LoggedProcess } from '../support/logged-process.ts';
import { startWorker, unitsComputed } from '../support/simulate-worker-process.ts';
import type { Bench } from './bench.ts';
import { cpuSecondsOf, memoryOf } from './server-processes.ts';

// The national precompute with the simulate work spread through the real Kafka cluster, as a deployment runs
// it (docs/deploying.md): `npm run pipeline` with KAFKA_BROKERS set and its lake in an S3 bucket (SeaweedFS),
// REM_STATES=all at the default homes per cluster, beside 1 and then 2 `npm run simulate:worker` processes of
// one thread each. The pipeline always joins the simulate group with its own threads (SIMULATE_WORKERS is at
// least 1), so it runs with 1 and its share is reported. Each run has a fresh lake and topic prefix, so all
// its clusters are computed; the workers are running before it starts, as a deployment's are. Everything
// shares this machine's cores: the 3 brokers, SeaweedFS, the pipeline and the workers.
//
// KAFKA_SCALE_STATES (default all) runs a subset for a quick proof: the health rollup's states are the same
// ones (HEALTH_STATES=all otherwise adds 4 clusters of every county). KAFKA_SCALE_ROUNDS (default 1) repeats
// the pair of runs, alternating, for a spread.
const STATES = process.env.KAFKA_SCALE_STATES ?? 'all';
const ROUNDS = Number(process.env.KAFKA_SCALE_ROUNDS ?? '1');
const WORKER_COUNTS = [1, 2];
/** How often the pipeline's peak RSS and CPU are read while it runs (they are gone once it has exited). */
const SAMPLE_EVERY_MS = 250;
/** How long the brokers' CPU is read while nothing uses them. */
const BROKER_IDLE_MS = 10_000;

/** What one process's peak RSS and CPU were at the last reading. */
function watchProcess(pid: number): () => { peakMb: number; cpuSeconds: number } {
  let peakMb = 0;
  let cpuSeconds = 0;
  const read = async () => {
    try {
      // An exited process not yet reaped (a zombie) has no memory figures left but its CPU times.
      const { peakMb: peak } = await memoryOf(pid);
      if (Number.isFinite(peak)) peakMb = Math.max(peakMb, peak);
      cpuSeconds = Math.max(cpuSeconds, await cpuSecondsOf(pid));
    } catch {
      // it has exited and been reaped
    }
  };
  // Unreferenced: a run that fails before reading the last figures must not keep the bench alive.
  const timer = setInterval(() => void read(), SAMPLE_EVERY_MS).unref();
  return () => {
    clearInterval(timer);
    return { peakMb, cpuSeconds };
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const brokerCpuSeconds = async (cluster: KafkaCluster) =>
  sum(await Promise.all(cluster.pids().map((pid) => cpuSecondsOf(pid))));

/** Bytes of the record files (`*.log`) of each topic of `prefix` on one broker: one replica of them. */
async function topicBytes(cluster: KafkaCluster, prefix: string): Promise<Map<string, number>> {
  const data = path.join(cluster.dir, 'node-1', 'data');
  const bytes = new Map<string, number>();
  for (const partitionDir of (await readdir(data)).filter((name) => name.startsWith(prefix))) {
    const topic = partitionDir.slice(prefix.length).replace(/-\d+$/, '');
    const files = (await readdir(path.join(data, partitionDir))).filter((f) => f.endsWith('.log'));
    const sizes = await Promise.all(
      files.map(async (f) => (await stat(path.join(data, partitionDir, f))).size),
    );
    bytes.set(topic, (bytes.get(topic) ?? 0) + sum(sizes));
  }
  return bytes;
}

async function directoryBytes(dir: string): Promise<number> {
  const files = await readdir(dir, { recursive: true, withFileTypes: true });
  const sizes = await Promise.all(
    files.filter((f) => f.isFile()).map(async (f) => (await stat(path.join(f.parentPath, f.name))).size),
  );
  return sum(sizes);
}

/** When `pipeline` logged its first line matching `match` (Date.now()). */
function loggedAt(pipeline: LoggedProcess, match: RegExp): number {
  const index = pipeline.lines.findIndex((line) => match.test(line));
  if (index < 0) throw new Error(`the pipeline never logged ${match}`);
  return pipeline.times[index]!;
}

/** The `durationMs` of a progress step the pipeline logged as done, in seconds. */
function stepSeconds(pipeline: LoggedProcess, step: string): number {
  const done = pipeline.entries.find((entry) => entry.step === step && typeof entry.durationMs === 'number');
  if (!done) throw new Error(`the pipeline never finished the step "${step}"`);
  return (done.durationMs as number) / 1000;
}

const loadText = (load: number[]) => load.map((l) => l.toFixed(2)).join(', ');

/** One pipeline run beside `workerCount` workers, on a fresh lake and topic prefix; its figures. */
async function measureRun(
  cluster: KafkaCluster,
  s3: SeaweedfsServer,
  workerCount: number,
  label: string,
  runId: string,
  brokerIdle: number,
): Promise<BenchResult[]> {
  const topicPrefix = `${runId}.`;
  const settings = {
    REM_STATES: STATES,
    HEALTH_STATES: STATES,
    KAFKA_BROKERS: cluster.bootstrap,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    LOG_LEVEL: 'info',
  };
  const lakeDir = await mkdtemp(path.join(tmpdir(), 'kafka-scale-lake-'));
  const lakeUrl = `s3://${s3.bucket}/${runId}`;
  const children: ChildProcessWithoutNullStreams[] = [];
  try {
    const workers = Array.from({ length: workerCount }, () => startWorker(settings, children));
    await Promise.all(workers.map((w) => w.logged(/joining the simulate group/)));
    const workerPids = workers.map((w) => w.child.pid!);

    const loadAtStart = loadavg();
    const workerCpuBefore = await Promise.all(workerPids.map((pid) => cpuSecondsOf(pid)));
    const brokerCpuBefore = await brokerCpuSeconds(cluster);
    const started = Date.now();
    const pipeline = startLoggedProcess(
      'pipeline/cli/pipeline.ts',
      {
        ...settings,
        SIMULATE_WORKERS: '1',
        LAKE_DIR: lakeDir,
        LAKE_URL: lakeUrl,
        AWS_ENDPOINT_URL_S3: s3.endpoint,
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        AWS_REGION: 'us-east-1',
      },
      children,
    );
    const pipelinePid = pipeline.child.pid!;
    const pipelineUsage = watchProcess(pipelinePid);
    // The pipeline's main thread (its task id is its pid) publishes the units and follows every result,
    // whoever computed it: its CPU over the stage is what the pipeline spends per cluster, however many
    // workers there are.
    await pipeline.logged(/clusters to compute/);
    const mainCpuAtStageStart = await cpuSecondsOf(pipelinePid, pipelinePid);
    const brokerCpuAtStageStart = await brokerCpuSeconds(cluster);
    await pipeline.logged(/^simulate clusters: done/);
    const mainCpuAtStageEnd = await cpuSecondsOf(pipelinePid, pipelinePid);
    const brokerCpuInStage = (await brokerCpuSeconds(cluster)) - brokerCpuAtStageStart;
    const code = await pipeline.exited;
    const ended = Date.now();
    const { peakMb: pipelinePeakMb, cpuSeconds: pipelineCpu } = pipelineUsage();
    if (code !== 0) throw new Error(`the pipeline failed (${code}): ${pipeline.stderr().slice(-3000)}`);
    const brokerCpu = (await brokerCpuSeconds(cluster)) - brokerCpuBefore;
    const workerCpu = (await Promise.all(workerPids.map((pid) => cpuSecondsOf(pid)))).map(
      (seconds, i) => seconds - workerCpuBefore[i]!,
    );
    const workerPeakMb = (await Promise.all(workerPids.map((pid) => memoryOf(pid)))).map((m) => m.peakMb);
    const loadAtEnd = loadavg();
    for (const worker of workers) worker.child.kill('SIGTERM');
    const workerExits = await Promise.all(workers.map((w) => w.exited));
    if (workerExits.some((exit) => exit !== 0)) throw new Error(`a worker exited with ${workerExits}`);
    const computedByWorkers = workers.map(unitsComputed);

    const stageStart = pipeline.entries.find((e) => /clusters to compute/.test(String(e.msg)))!;
    const clusters = Number(stageStart.clusters);
    // The run's wall time in the order it is spent, from the pipeline's log lines (when they came) and the
    // durations its progress steps logged.
    const stageBegan = loggedAt(pipeline, /clusters to compute/);
    const stageEnded = loggedAt(pipeline, /^simulate clusters: done/);
    const gatherSeconds = stepSeconds(pipeline, 'gather statistics');
    const tablesBuilt = loggedAt(pipeline, /^build tables: done/);
    const writeSeconds = stepSeconds(pipeline, 'write snapshot');
    const written = loggedAt(pipeline, /^write snapshot: done/);
    const published = loggedAt(pipeline, /^published snapshot/);
    const wholeSeconds = (ended - started) / 1000;
    const stageSeconds = (stageEnded - stageBegan) / 1000;
    const split = {
      before: (stageBegan - started) / 1000,
      otherTables: (tablesBuilt - stageEnded) / 1000 - gatherSeconds,
      audits: (written - tablesBuilt) / 1000 - writeSeconds,
      upload: (published - written) / 1000,
      exit: (ended - published) / 1000,
    };
    const snapshotId = String(
      pipeline.entries.find((e) => /^published snapshot/.test(String(e.msg)))!.snapshot,
    );
    // The pipeline keeps a copy of what it uploaded in its lake's cache.
    const snapshotBytes = await directoryBytes(
      path.join(
        snapshotCacheDir(openLake({ LAKE_DIR: lakeDir, LAKE_URL: lakeUrl })),
        'snapshots',
        snapshotId,
      ),
    );
    const bytes = await topicBytes(cluster, topicPrefix);
    const otherTopicBytes = sum(
      [...bytes].filter(([t]) => t !== REM_WORK_UNITS_TOPIC && t !== REM_RESULTS_TOPIC).map(([, b]) => b),
    );
    const mb = (b: number) => Math.round(b / 1e5) / 10;
    const byPipeline = Math.max(0, clusters - sum(computedByWorkers));
    const load = `load average ${loadText(loadAtStart)} at the start, ${loadText(loadAtEnd)} at the end`;
    const perCluster = (seconds: number, count: number) => Number(((1000 * seconds) / count).toFixed(3));

    return [
      {
        name: `whole run, ${label}`,
        value: Math.round(wholeSeconds),
        unit: 's',
        note: `npm run pipeline from start to exit, ${clusters} clusters; ${load}`,
      },
      {
        name: `simulate stage, ${label}`,
        value: Math.round(stageSeconds),
        unit: 's',
        note: `from its units' publication to the last result: ${(clusters / stageSeconds).toFixed(1)} clusters/s, ${perCluster(stageSeconds, clusters)} ms of wall time per cluster`,
      },
      {
        name: `before the simulate stage, ${label}`,
        value: Number(split.before.toFixed(1)),
        unit: 's',
        note: 'start-up, ingest onto Kafka, staging, the tables built before rem_clusters, planning the units',
      },
      {
        name: `gathering the statistics back from Kafka, ${label}`,
        value: Number(gatherSeconds.toFixed(1)),
        unit: 's',
        note: 'rem_cluster_statistics: every result read again in the one pipeline process, into DuckDB',
      },
      {
        name: `the other tables built after the stage, ${label}`,
        value: Number(split.otherTables.toFixed(1)),
        unit: 's',
        note: 'from the last result to the end of the build, less the statistics gather',
      },
      {
        name: `audits, ${label}`,
        value: Number(split.audits.toFixed(1)),
        unit: 's',
        note: 'from the end of the build to the start of the snapshot write (comparison with the published one)',
      },
      {
        name: `writing the snapshot, ${label}`,
        value: Number(writeSeconds.toFixed(1)),
        unit: 's',
        note: `Parquet files of every table: ${mb(snapshotBytes)} MB`,
      },
      {
        name: `uploading and publishing the snapshot, ${label}`,
        value: Number(split.upload.toFixed(1)),
        unit: 's',
        note: `to SeaweedFS on this machine (one PutObject per file), CURRENT by compare-and-swap: ${(mb(snapshotBytes) / split.upload).toFixed(0)} MB/s`,
      },
      {
        name: `announcing and exiting, ${label}`,
        value: Number(split.exit.toFixed(1)),
        unit: 's',
        note: 'from the publish to the exit of the process',
      },
      {
        name: `clusters computed by the pipeline's own thread, ${label}`,
        value: byPipeline,
        unit: 'clusters',
        note: `${Math.round((100 * byPipeline) / clusters)} % (all clusters less those the workers computed: ${computedByWorkers.join(', ')})`,
      },
      ...workers.flatMap((_, i): BenchResult[] => [
        {
          name: `worker ${i + 1} CPU per cluster, ${label}`,
          value: perCluster(workerCpu[i]!, computedByWorkers[i]!),
          unit: 'ms',
          note: `${computedByWorkers[i]} clusters, ${(computedByWorkers[i]! / stageSeconds).toFixed(1)}/s; ${workerCpu[i]!.toFixed(1)} s of CPU over the run (/proc/<pid>/stat)`,
        },
        {
          name: `worker ${i + 1} peak RSS, ${label}`,
          value: Math.round(workerPeakMb[i]!),
          unit: 'MB',
          note: 'VmHWM, one thread, from its start to the end of the run',
        },
      ]),
      {
        name: `pipeline main thread CPU per cluster during the stage, ${label}`,
        value: perCluster(mainCpuAtStageEnd - mainCpuAtStageStart, clusters),
        unit: 'ms',
        note: 'publishing the units and following every result on Kafka (its own thread aside)',
      },
      {
        name: `pipeline CPU, ${label}`,
        value: Math.round(pipelineCpu),
        unit: 's',
        note: 'every thread, its own simulate thread included',
      },
      {
        name: `pipeline peak RSS, ${label}`,
        value: Math.round(pipelinePeakMb),
        unit: 'MB',
        note: `VmHWM, read every ${SAMPLE_EVERY_MS} ms while it ran`,
      },
      {
        name: `broker CPU, ${label}`,
        value: Math.round(brokerCpu),
        unit: 's',
        note: `the 3 JVMs over the run (${brokerIdle.toFixed(2)} s/s when idle, before the first run)`,
      },
      {
        name: `broker CPU per cluster during the stage, ${label}`,
        value: perCluster(brokerCpuInStage, clusters),
        unit: 'ms',
        note: `the 3 JVMs: ${brokerCpuInStage.toFixed(1)} s over the stage's ${stageSeconds.toFixed(0)} s (units in, results in, results out to the pipeline)`,
      },
      {
        name: `Kafka records written, ${label}`,
        value: mb(sum([...bytes.values()])),
        unit: 'MB',
        note: `one replica of 3: work units ${mb(bytes.get(REM_WORK_UNITS_TOPIC) ?? 0)} MB, results ${mb(bytes.get(REM_RESULTS_TOPIC) ?? 0)} MB, ingested records ${mb(otherTopicBytes)} MB`,
      },
    ];
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await rm(lakeDir, { recursive: true, force: true });
  }
}

export const bench: Bench = {
  title: 'National precompute through the real Kafka cluster, with simulate:worker processes',
  async run() {
    const unavailable =
      kafkaUnavailable('the kafka-scale bench') ?? seaweedfsUnavailable('the kafka-scale bench');
    if (unavailable !== undefined) throw new Error(unavailable);
    const cluster = await startKafkaCluster();
    const s3 = await startSeaweedfs();
    try {
      // What the brokers spend doing nothing (KRaft heartbeats, the group coordinator's timers), in CPU
      // seconds a second: their CPU over a run holds this much of it whatever the run does.
      const idleBefore = await brokerCpuSeconds(cluster);
      await new Promise((resolve) => setTimeout(resolve, BROKER_IDLE_MS));
      const brokerIdle = ((await brokerCpuSeconds(cluster)) - idleBefore) / (BROKER_IDLE_MS / 1000);
      const results: BenchResult[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        for (const workers of WORKER_COUNTS) {
          const label = `${workers} worker${workers > 1 ? 's' : ''}${ROUNDS > 1 ? `, round ${round}` : ''}`;
          console.log(`(${label}: REM_STATES=${STATES})`);
          results.push(
            ...(await measureRun(cluster, s3, workers, label, `scale-${round}-${workers}`, brokerIdle)),
          );
        }
      }
      return results;
    } finally {
      await Promise.all([cluster.stop(), s3.stop()]);
    }
  },
};
