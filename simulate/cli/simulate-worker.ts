import { openKafkaEventLog } from '../../eventlog/open-event-log.ts';
import { startMetricsListener, type MetricsListener } from '../../lib/metrics/metrics-listener.ts';
import { REM_WORK_UNITS_TOPIC } from '../../schemas/rem-stage.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import { codeVersionOf, simulateCodeHash } from '../simulate-code.ts';
import { defaultWorkerCount, WorkerPool } from '../worker-pool.ts';
import { readModelFiles } from '../../model/surrogate/committed-model.ts';
import { runSimulateWorker, SIMULATE_GROUP } from '../simulate-stage.ts';
import { SimulateWorkerMetrics } from '../simulate-worker-metrics.ts';
import { runMain, UsageError } from '../../lib/cli-main.ts';

// npm run simulate:worker: one more member of the simulate stage's consumer group, on any machine that reaches
// the Kafka brokers (see docs/rem-model.md, "Simulate stage"). SIGINT or SIGTERM: finish the units in hand, then leave.
runMain(async () => {
  const config = loadConfig();
  if (!config.KAFKA_BROKERS) {
    throw new UsageError(
      'simulate:worker needs Kafka: set KAFKA_BROKERS (and KAFKA_TOPIC_PREFIX as the pipeline has it). With the ' +
        "embedded event log the pipeline's own worker threads (SIMULATE_WORKERS) are the simulate workers.",
    );
  }
  const logger = createLogger(config.LOG_LEVEL, 'simulate-worker');
  const model = await readModelFiles();
  const threads = defaultWorkerCount(config.SIMULATE_WORKERS);
  const code = codeVersionOf(simulateCodeHash());
  const log = await openKafkaEventLog({ ...config, KAFKA_BROKERS: config.KAFKA_BROKERS }, logger);
  const metrics = new SimulateWorkerMetrics({
    threads,
    lag: () => log.consumerLag(SIMULATE_GROUP, [REM_WORK_UNITS_TOPIC]),
  });
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'simulate worker: stopping after the units in hand');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let listener: MetricsListener | undefined;
  try {
    if (config.METRICS_PORT !== undefined) {
      listener = await startMetricsListener(metrics.registry, {
        host: config.METRICS_HOST,
        port: config.METRICS_PORT,
      });
      logger.info({ url: listener.url }, `simulate worker: metrics on ${listener.url}`);
    }
    const runner = await WorkerPool.start(threads, model.onnx);
    try {
      logger.info(
        { threads, model: model.card.model_version, code },
        'simulate worker: joining the simulate group',
      );
      const computed = await runSimulateWorker({
        log,
        runner,
        signal: stop.signal,
        versions: { code, model: model.card.model_version },
        logger,
        metrics,
      });
      logger.info({ computed }, 'simulate worker: stopped');
    } finally {
      await runner.close();
    }
  } finally {
    await Promise.all([log.close(), listener?.close()]);
  }
  return 0;
});
