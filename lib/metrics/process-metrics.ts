import { collectDefaultMetrics, type Registry } from 'prom-client';

/**
 * prom-client's default metrics that break Prometheus's naming rules: gauges whose names end in `_total`,
 * which `promtool check metrics` reports. Their counts are in `nodejs_active_handles` and friends anyway.
 */
const MISNAMED_DEFAULT_METRICS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** prom-client's process and Node runtime metrics (CPU, memory, event-loop lag, GC, handles) in `registry`. */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_DEFAULT_METRICS) registry.removeSingleMetric(name);
}
