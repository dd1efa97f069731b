import { Counter, Gauge, Registry } from 'prom-client';
import type { PartitionLag } from '../eventlog/kafka-log.ts';
import { collectProcessMetrics } from '../lib/metrics/process-metrics.ts';

/**
 * The metrics of one `npm run simulate:worker` process, served on METRICS_PORT while it runs: the clusters it
 * computed (rate() of the counter is its clusters per second), its threads, and how far the simulate group
 * is behind on the work-units topic, read from Kafka at each scrape.
 */
export class SimulateWorkerMetrics {
  readonly registry = new Registry();
  private readonly computed: Counter;

  constructor(options: { threads: number; lag: () => Promise<readonly PartitionLag[]> }) {
    const registers = [this.registry];
    collectProcessMetrics(this.registry);
    this.computed = new Counter({
      name: 'electrify_simulate_clusters_computed_total',
      help: 'REM clusters this worker computed and published (rate(): clusters per second)',
      registers,
    });
    new Gauge({
      name: 'electrify_simulate_worker_threads',
      help: 'Threads this worker computes clusters on (SIMULATE_WORKERS)',
      registers,
    }).set(options.threads);
    new Gauge({
      name: 'electrify_simulate_consumer_lag',
      help: "Work units the simulate consumer group has yet to commit, per partition of the units' topic",
      labelNames: ['topic', 'partition'],
      registers,
      async collect() {
        this.reset();
        for (const { topic, partition, lag } of await options.lag())
          this.set({ topic, partition: String(partition) }, lag);
      },
    });
  }

  /** Clusters computed and published. */
  unitsComputed(count: number): void {
    this.computed.inc(count);
  }
}
