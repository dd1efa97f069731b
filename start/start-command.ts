import { setTimeout as delay } from 'node:timers/promises';
import { createLogger, bufferedStdout, terminalLogDestination } from '../lib/log.ts';
import { ProgressBoard, sourceStepsOnOneLine, type ProgressLine } from '../lib/progress-board.ts';
import { PrecomputeTimeLeft, precomputePrior } from '../lib/run-estimate.ts';
import { preparing, timeLeftText } from '../serve/http/not-ready.ts';
import { defaultWorkerCount } from '../simulate/worker-pool.ts';
import { createProgress, teeProgress } from '../lib/progress.ts';
import { createTerminalDisplay, onTerminal } from '../lib/terminal-display.ts';
import type { Config } from '../schemas/config.ts';
import { defaultDefinitions, type PipelineDefinitions } from '../pipeline/definitions.ts';
import { holdReport } from '../data-lake/audit/hold-report.ts';
import { runPipeline } from '../pipeline/run-pipeline.ts';
import { firstAnswersConfig, firstStageCatalog, lacksAll, staleTables } from '../pipeline/staged-publish.ts';
import { lakeTableFamilies } from '../transform/tables/index.ts';
import { createRouteGroups } from '../serve/route-groups.ts';
import { REM_MODEL_THREAD, threadedRemModel } from '../simulate/on-demand/threaded-rem-model.ts';
import { limitHeapGrowth } from '../serve/heap-growth.ts';
import { startService } from '../serve/service.ts';
import { answerVersion } from '../serve/answer-version.ts';
import { openLake } from '../data-lake/lake.ts';
import { openKafkaEventLog } from '../eventlog/open-event-log.ts';
import { codeFingerprint } from '../lib/code-fingerprint.ts';
import { lakeSnapshotSource } from '../serve/snapshot/lake-snapshot-source.ts';

/**
 * Serves with the real lake, pipeline and route groups until SIGINT/SIGTERM; returns the exit code when
 * the server could not start.
 */
export async function startCommand(config: Config): Promise<number | undefined> {
  limitHeapGrowth(config.SERVE_HEAP_GROWTH_PERCENT);
  // One line per pipeline step; ingest's per-source steps share a line each.
  const board = new ProgressBoard({ lineFor: sourceStepsOnOneLine });
  // The timed steps of this start's quick stage: the plan the whole precompute's time left is estimated by.
  let plan: readonly ProgressLine[] | null = null;
  let runFrom = 0;
  // Read by the 503s, /healthz and the terminal alike, so each sees one estimate that never jumps up.
  let timeLeft: PrecomputeTimeLeft | null = null;
  let precomputing = false;
  const precomputeLeft = () => {
    const now = performance.now();
    timeLeft ??= new PrecomputeTimeLeft(precomputePrior(defaultWorkerCount(config.SIMULATE_WORKERS)), now);
    return timeLeft.read(plan, board.snapshot().slice(runFrom), now);
  };
  const display = onTerminal(config)
    ? createTerminalDisplay(board, {
        stream: process.stderr,
        // Only while a step runs: the board's last change of a precompute is its last step ending.
        summary: () =>
          precomputing && board.running() !== null
            ? `precompute: about ${timeLeftText(precomputeLeft())} left in all`
            : null,
      })
    : null;
  // stderr: the JSON logs go to stdout, and a key must not end up wherever they are collected.
  const print = display ? display.print : (block: string) => void process.stderr.write(`${block}\n`);
  // JSON logs on stdout (a line per request); on a terminal, its warnings and errors printed as they come.
  const logger = createLogger(
    config.LOG_LEVEL,
    'serve',
    display ? terminalLogDestination(print) : bufferedStdout(),
  );
  // The board also feeds the 503s and /healthz while the precompute runs, so it hears every step.
  const progress = display ? board : teeProgress(createProgress({ logger, onTerminal: false }), board);
  const pipeline = async (stage: string, stageConfig: Config, definitions: PipelineDefinitions) => {
    const result = await runPipeline({
      config: stageConfig,
      logger,
      progress,
      definitions,
      trigger: 'start',
    });
    // A held snapshot is not served: the server keeps what CURRENT names until someone reviews it.
    if (result.status === 'held') logger.warn({ snapshot: result.snapshotId }, holdReport(result.manifest));
    else logger.info({ snapshot: result.snapshotId, status: result.status }, `${stage} pipeline run done`);
    if (display) print(`${stage}: snapshot ${result.snapshotId} ${result.status}`);
  };
  const precompute = async (servePublished: () => Promise<void>) => {
    const definitions = await defaultDefinitions(config);
    if ((await staleTables(openLake(config), definitions, config)).length === 0) return;
    precomputing = true;
    try {
      await precomputeStages(servePublished, definitions);
    } finally {
      precomputing = false;
    }
  };
  const precomputeStages = async (servePublished: () => Promise<void>, definitions: PipelineDefinitions) => {
    const stage = async (name: string, stageConfig: Config) => {
      runFrom = board.snapshot().length;
      await pipeline(name, stageConfig, definitions);
      const load = progress.start('load snapshot', { total: 1, unit: 'snapshots' });
      await servePublished();
      load.tick();
      load.done();
    };
    // A fresh lake: REM (on demand) and the sample's health answer within seconds, then the rest follows.
    if (await lacksAll(openLake(config), [...lakeTableFamilies.rem, ...lakeTableFamilies.health])) {
      await stage('first answers', firstAnswersConfig(config));
      plan = board.snapshot().slice(runFrom);
    }
    await stage('precompute', config);
  };
  let service;
  try {
    service = await startService({
      config,
      logger,
      routeGroups: createRouteGroups({
        remModel: threadedRemModel({ threads: config.REM_MODEL_THREADS, maxQueued: config.REM_MODEL_QUEUE }),
      }),
      source: lakeSnapshotSource(openLake(config), {
        // On Kafka, publishes are announced: a replica loads a new snapshot within a second of it.
        ...(config.KAFKA_BROKERS === undefined
          ? {}
          : {
              announcements: () =>
                openKafkaEventLog({ ...config, KAFKA_BROKERS: config.KAFKA_BROKERS! }, logger),
            }),
      }),
      // The model threads' code answers /rem requests the snapshot does not hold: it is part of every ETag.
      answerVersion: answerVersion(config, [codeFingerprint([REM_MODEL_THREAD]).hash]),
      // The incentives first (seconds): the calculator answers while the REM and health tables precompute.
      publishFirstSnapshot: async () =>
        pipeline(
          'incentives',
          config,
          firstStageCatalog(await defaultDefinitions(config), lakeTableFamilies.incentives),
        ),
      precompute: {
        run: precompute,
        progress: () => {
          // The whole precompute's time left: a step's own would mislead (see not-ready.ts).
          const left = precomputeLeft();
          const line = board.running();
          if (line === null) return preparing(left);
          return { step: line.label, count: line.count, total: line.total, unit: line.unit, left };
        },
      },
      print,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    console.error(
      code === 'EADDRINUSE' || code === 'EACCES'
        ? `error: cannot listen on ${config.HOST}:${config.PORT} (${code}); set PORT or HOST`
        : `error: the server could not start: ${(err as Error).message}`,
    );
    return 1;
  }

  if (display) print(`serving on ${service.url}`);
  const running = service;
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      display?.close();
      running.drain();
      logger.info(
        { signal, drainMs: config.SERVE_DRAIN_MS },
        'draining: /healthz answers 503, requests still served',
      );
      // In-flight requests get a bounded time after the drain; a stuck one must not keep the process alive.
      setTimeout(() => process.exit(1), config.SERVE_DRAIN_MS + 10_000).unref();
      delay(config.SERVE_DRAIN_MS)
        .then(() => {
          logger.info('shutting down: finishing requests in flight');
          return running.stop();
        })
        .then(
          () => process.exit(0),
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }
  return undefined;
}
