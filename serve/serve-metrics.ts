import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { collectProcessMetrics } from '../lib/metrics/process-metrics.ts';
import type { LoadedSnapshot, SourceStatus } from './snapshot/snapshot-holder.ts';

/** Latency buckets (seconds): most answers come from memory in a millisecond or two; profiles take longer. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The label of a request no route matched (its raw URL would make a series per scanner's guess). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The Prometheus metrics of one serving process, in a registry of its own (see docs/metrics.md). The
 * request path only bumps numbers; what can be read from the process's state (the snapshot served, its
 * age, the REM model's queue) is read when a scrape asks.
 */
export class ServeMetrics {
  readonly registry = new Registry();
  private readonly durations: Histogram<'method' | 'route' | 'status_class'>;
  private readonly cacheHits: Counter;
  private readonly cacheMisses: Counter;
  private readonly rateLimited: Counter;
  private readonly swaps: Counter;
  private readonly failedLoads: Counter;
  private snapshots: { current(): LoadedSnapshot | null; status?(): SourceStatus } = { current: () => null };
  private modelQueue: () => number = () => 0;

  constructor(now: () => number = Date.now) {
    const registers = [this.registry];
    const served = () => this.snapshots.current();
    collectProcessMetrics(this.registry);
    this.durations = new Histogram({
      name: 'electrify_http_request_duration_seconds',
      help: 'Time from a request arriving to its response being sent, by route pattern and status class; _count counts requests',
      labelNames: ['method', 'route', 'status_class'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.cacheHits = new Counter({
      name: 'electrify_response_cache_hits_total',
      help: 'Data requests answered from the response cache',
      registers,
    });
    this.cacheMisses = new Counter({
      name: 'electrify_response_cache_misses_total',
      help: 'Data requests looked up in the response cache and not found there',
      registers,
    });
    this.rateLimited = new Counter({
      name: 'electrify_rate_limited_requests_total',
      help: "Requests refused (429) because their API key's rate limit was exceeded",
      registers,
    });
    this.swaps = new Counter({
      name: 'electrify_snapshot_swaps_total',
      help: 'Snapshots loaded and swapped in (the first one included)',
      registers,
    });
    this.failedLoads = new Counter({
      name: 'electrify_snapshot_load_failures_total',
      help: 'Attempts to load a published snapshot that failed (the previous one kept serving)',
      registers,
    });
    new Gauge({
      name: 'electrify_snapshot_info',
      help: 'The snapshot being served: 1, with its id as a label; no series before the first snapshot',
      labelNames: ['snapshot_id'],
      registers,
      collect() {
        this.reset();
        const snapshot = served();
        if (snapshot !== null) this.set({ snapshot_id: snapshot.id }, 1);
      },
    });
    new Gauge({
      name: 'electrify_snapshot_age_seconds',
      help: 'Seconds since the snapshot being served was created, with its id; no series before the first snapshot',
      labelNames: ['snapshot_id'],
      registers,
      collect() {
        this.reset();
        const snapshot = served();
        if (snapshot !== null)
          this.set({ snapshot_id: snapshot.id }, (now() - Date.parse(snapshot.createdAt)) / 1000);
      },
    });
    this.lakeGauges(registers);
    const queueDepth = () => this.modelQueue();
    new Gauge({
      name: 'electrify_rem_model_queue_depth',
      help: 'REM model jobs (clusters computed on request, profiles) waiting for a model thread',
      registers,
      collect() {
        this.set(queueDepth());
      },
    });
  }

  /** How this process follows the lake: reachable, behind CURRENT, following announcements. */
  private lakeGauges(registers: Registry[]): void {
    const status = () => this.snapshots.status?.();
    const served = () => this.snapshots.current();
    new Gauge({
      name: 'electrify_lake_reachable',
      help: "1 when the last read of the lake's CURRENT succeeded, 0 while the lake cannot be read (the last snapshot serves)",
      registers,
      collect() {
        this.set(status()?.reachable === false ? 0 : 1);
      },
    });
    new Gauge({
      name: 'electrify_snapshot_behind',
      help: 'CURRENT names a snapshot this process could not load (unreachable, corrupt or incomplete): 1, else 0',
      registers,
      collect() {
        const seen = status();
        const current = seen?.current ?? null;
        this.set(current !== null && current !== served()?.id ? 1 : 0);
      },
    });
    new Gauge({
      name: 'electrify_publish_announcements_following',
      help: 'Whether announcements of publishes on the event log are followed: 1, 0 while failing; no series when not configured',
      registers,
      collect() {
        this.reset();
        const announcements = status()?.announcements;
        if (announcements !== undefined && announcements !== 'off')
          this.set(announcements === 'following' ? 1 : 0);
      },
    });
  }

  /** Counts a response of `route` (its pattern, or UNMATCHED_ROUTE) and observes its latency. */
  observeResponse(method: string, route: string, statusCode: number, seconds: number): void {
    this.durations.observe({ method, route, status_class: `${Math.floor(statusCode / 100)}xx` }, seconds);
  }

  responseCacheLookup(hit: boolean): void {
    (hit ? this.cacheHits : this.cacheMisses).inc();
  }

  rateLimitRefused(): void {
    this.rateLimited.inc();
  }

  snapshotSwapped(): void {
    this.swaps.inc();
  }

  snapshotLoadFailed(): void {
    this.failedLoads.inc();
  }

  /** What serves the snapshot whose id and age each scrape reports. */
  watchSnapshots(snapshots: { current(): LoadedSnapshot | null; status?(): SourceStatus }): void {
    this.snapshots = snapshots;
  }

  /** Where the REM model's queue depth is read from at each scrape. */
  watchModelQueue(depth: () => number): void {
    this.modelQueue = depth;
  }
}
