import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesHistogram } from '../../../lib/metrics/series-histogram.ts';

const OPTIONS = {
  name: 'electrify_http_request_duration_seconds',
  help: 'Time from a request arriving to its response being sent',
  labelNames: ['route', 'status_class'] as const,
  buckets: [0.001, 0.01, 0.1],
};

/** Latencies of a morning: answers from memory, one slow profile, one on a bound, one past the last. */
const OBSERVED: [string, string, number][] = [
  ['/api/v1/calculator', '2xx', 0.0004],
  ['/api/v1/calculator', '2xx', 0.001],
  ['/api/v1/calculator', '2xx', 0.0031],
  ['/api/v1/calculator', '4xx', 0.0002],
  ['/api/v1/rem/profile', '2xx', 0.042],
  ['/api/v1/rem/profile', '2xx', 2.5],
];

describe('SeriesHistogram', () => {
  it('is written out exactly as prom-client writes its own Histogram of the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const series = new SeriesHistogram({ ...OPTIONS, registers: [ours] });
    const reference = new Histogram({ ...OPTIONS, labelNames: [...OPTIONS.labelNames], registers: [theirs] });
    for (const [route, status_class, seconds] of OBSERVED) {
      series.labels({ route, status_class }).observe(seconds);
      reference.labels({ route, status_class }).observe(seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'electrify_http_request_duration_seconds_bucket{le="0.001",route="/api/v1/calculator",status_class="2xx"} 2',
    );
    expect(text).toContain(
      'electrify_http_request_duration_seconds_count{route="/api/v1/rem/profile",status_class="2xx"} 2',
    );
  });

  it('gives the same series for the same labels, and counts from zero again after a reset', async () => {
    const registry = new Registry();
    const histogram = new SeriesHistogram({ ...OPTIONS, registers: [registry] });
    histogram.labels({ route: '/healthz', status_class: '2xx' }).observe(0.0001);
    histogram.labels({ route: '/healthz', status_class: '2xx' }).observe(0.0002);
    expect(await registry.metrics()).toContain(
      'electrify_http_request_duration_seconds_count{route="/healthz",status_class="2xx"} 2',
    );
    registry.resetMetrics();
    expect(await registry.metrics()).toContain(
      'electrify_http_request_duration_seconds_count{route="/healthz",status_class="2xx"} 0',
    );
  });

  it('refuses a series missing one of its labels', () => {
    const histogram = new SeriesHistogram({ ...OPTIONS, registers: [] });
    expect(() => histogram.labels({ route: '/healthz' } as never)).toThrow(
      'electrify_http_request_duration_seconds: label status_class missing',
    );
  });
});
