import { afterAll, describe, expect, vi } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { ServeMetrics } from '../../serve/serve-metrics.ts';
import { startService, type RunningService } from '../../serve/service.ts';
import { promtoolCheckMetrics, promtoolUnavailable } from '../support/promtool.ts';
import { sampleValue, samplesOf } from '../support/prometheus-text.ts';
import {
  MemorySnapshotSource,
  memoryReader,
  programsModule,
  silentLogger,
  testConfig,
} from '../support/serve-fixtures.ts';

const KEY = 'metrics-test-key-0123456789';
const CREATED_AT = '2026-11-21T12:00:00.000Z';

// The real service (shell, auth, data scope, snapshot holder) with the fixture route group and its metrics
// listener on a free port, driven over HTTP, then scraped like Prometheus would.
let lakeDir: string;
let source: MemorySnapshotSource;
let service: RunningService;
let scrape: string;
let scrapedAt: number;
it.beforeAll(async ({ fileTempDir }) => {
  lakeDir = fileTempDir;
  source = new MemorySnapshotSource();
  source.publish(memoryReader('snap-a', undefined, CREATED_AT));
  service = await startService({
    config: testConfig({
      LAKE_DIR: lakeDir,
      PORT: '0',
      API_KEYS: KEY,
      RATE_LIMIT_PER_MINUTE: '6',
      SNAPSHOT_POLL_MS: '50',
      METRICS_PORT: '0',
    }),
    logger: silentLogger(),
    routeGroups: [programsModule()],
    source,
    publishFirstSnapshot: async () => {},
    print: () => {},
  });
  const send = (url: string, init: RequestInit = {}, key: string | null = KEY) =>
    fetch(`${service.url}${url}`, {
      ...init,
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...init.headers },
    }).then((res) => res.status);

  // The key's 6 requests a minute: a miss, then two hits of one URL, a miss and a 400 of others, and a POST.
  expect(await send('/v1/programs')).toBe(200);
  expect(await send('/v1/programs')).toBe(200);
  expect(await send('/v1/programs')).toBe(200);
  expect(await send('/v1/programs?minAmount=2000')).toBe(200);
  expect(await send('/v1/programs?minAmount=-1')).toBe(400);
  expect(
    await send('/v1/estimate', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    }),
  ).toBe(400);
  // Over the limit: refused twice.
  expect(await send('/v1/programs')).toBe(429);
  expect(await send('/v1/programs?minAmount=1')).toBe(429);
  // No key, a path no route serves, the health check.
  expect(await send('/v1/programs', {}, null)).toBe(401);
  expect(await send('/wp-login.php?user=admin', {}, null)).toBe(404);
  expect(await send('/healthz', {}, null)).toBe(200);

  // A snapshot that cannot be opened, then a good one: one failed load (at least), two swaps in all.
  source.publishBroken('snap-broken');
  await vi.waitFor(() => expect(source.opened).toBeGreaterThanOrEqual(2), { timeout: 5000 });
  source.publish(memoryReader('snap-b', undefined, CREATED_AT));
  await vi.waitFor(
    async () => {
      const health = (await (await fetch(`${service.url}/healthz`)).json()) as { snapshot: { id: string } };
      expect(health.snapshot.id).toBe('snap-b');
    },
    { timeout: 5000 },
  );

  const res = await fetch(service.metricsUrl!);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  scrapedAt = Date.now();
  scrape = await res.text();
});
afterAll(async () => {
  await service?.stop();
});

const requests = (method: string, route: string, statusClass: string) =>
  sampleValue(scrape, 'electrify_http_request_duration_seconds_count', {
    method,
    route,
    status_class: statusClass,
  });

describe('the serving process’s metrics, scraped from METRICS_PORT', () => {
  it('listens on loopback, apart from the API port, and serves nothing but /metrics', async () => {
    expect(service.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(service.metricsUrl!).port).not.toBe(new URL(service.url).port);
    expect((await fetch(service.metricsUrl!.replace('/metrics', '/'))).status).toBe(404);
  });

  it('counts requests by route pattern and status class, never by URL', () => {
    expect(requests('GET', '/v1/programs', '2xx')).toBe(4);
    expect(requests('GET', '/v1/programs', '4xx')).toBe(4); // a 400, two 429s, a 401
    expect(requests('POST', '/v1/estimate', '4xx')).toBe(1);
    expect(requests('GET', 'unmatched', '4xx')).toBe(1);
    expect(requests('GET', '/healthz', '2xx')).toBeGreaterThanOrEqual(2); // and the polls for snap-b
    const routes = new Set(
      samplesOf(scrape, 'electrify_http_request_duration_seconds_count').map((s) => s.labels.route),
    );
    expect([...routes].sort()).toEqual(['/healthz', '/v1/estimate', '/v1/programs', 'unmatched']);
  });

  it('observes latencies in a histogram whose buckets add up to the count', () => {
    const buckets = samplesOf(scrape, 'electrify_http_request_duration_seconds_bucket', {
      method: 'GET',
      route: '/v1/programs',
      status_class: '2xx',
    });
    expect(buckets.map((b) => b.labels.le)).toEqual([
      '0.0005',
      '0.001',
      '0.0025',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '+Inf',
    ]);
    expect(buckets.at(-1)!.value).toBe(4);
    const sum = sampleValue(scrape, 'electrify_http_request_duration_seconds_sum', {
      method: 'GET',
      route: '/v1/programs',
      status_class: '2xx',
    });
    expect(sum).toBeGreaterThan(0);
  });

  it('counts response-cache hits and misses, and requests the rate limit refused', () => {
    expect(sampleValue(scrape, 'electrify_response_cache_hits_total')).toBe(2);
    expect(sampleValue(scrape, 'electrify_response_cache_misses_total')).toBe(3);
    expect(sampleValue(scrape, 'electrify_rate_limited_requests_total')).toBe(2);
  });

  it('reports the snapshot served, its age, the swaps and the failed loads', () => {
    expect(samplesOf(scrape, 'electrify_snapshot_info')).toEqual([
      { name: 'electrify_snapshot_info', labels: { snapshot_id: 'snap-b' }, value: 1 },
    ]);
    const age = sampleValue(scrape, 'electrify_snapshot_age_seconds', { snapshot_id: 'snap-b' });
    expect(age).toBeLessThanOrEqual((scrapedAt - Date.parse(CREATED_AT)) / 1000);
    expect(age).toBeGreaterThan((scrapedAt - Date.parse(CREATED_AT)) / 1000 - 60);
    expect(sampleValue(scrape, 'electrify_snapshot_swaps_total')).toBe(2);
    expect(sampleValue(scrape, 'electrify_snapshot_load_failures_total')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(scrape, 'electrify_rem_model_queue_depth')).toBe(0);
  });

  it('includes the Node process metrics', () => {
    expect(sampleValue(scrape, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samplesOf(scrape, 'nodejs_eventloop_lag_p99_seconds')).toHaveLength(1);
  });

  it.skipIf(promtoolUnavailable !== undefined)('passes promtool check metrics, lint included', async () => {
    expect(await promtoolCheckMetrics(scrape)).toEqual({ code: 0, output: '' });
  });
});

describe('ServeMetrics', () => {
  it('reads the model queue and the snapshot when scraped, and has no snapshot series before the first', async () => {
    const metrics = new ServeMetrics(() => Date.parse('2026-11-21T12:10:00.000Z'));
    let waiting = 3;
    metrics.watchModelQueue(() => waiting);
    let text = await metrics.registry.metrics();
    expect(sampleValue(text, 'electrify_rem_model_queue_depth')).toBe(3);
    expect(samplesOf(text, 'electrify_snapshot_info')).toEqual([]);
    expect(samplesOf(text, 'electrify_snapshot_age_seconds')).toEqual([]);

    let snapshot: ReturnType<typeof memoryReader> | null = memoryReader('s1', undefined, CREATED_AT);
    metrics.watchSnapshots({
      current: () => (snapshot === null ? null : { ...snapshot, createdAt: CREATED_AT, data: new Map() }),
    });
    waiting = 0;
    text = await metrics.registry.metrics();
    expect(sampleValue(text, 'electrify_rem_model_queue_depth')).toBe(0);
    expect(sampleValue(text, 'electrify_snapshot_info', { snapshot_id: 's1' })).toBe(1);
    expect(sampleValue(text, 'electrify_snapshot_age_seconds', { snapshot_id: 's1' })).toBe(600);
    snapshot = null;
    expect(samplesOf(await metrics.registry.metrics(), 'electrify_snapshot_info')).toEqual([]);
  });

  it('labels a response by its status class', async () => {
    const metrics = new ServeMetrics();
    for (const status of [200, 204, 304, 404, 429, 503])
      metrics.observeResponse('GET', '/v1/x', status, 0.002);
    const text = await metrics.registry.metrics();
    const counts = Object.fromEntries(
      samplesOf(text, 'electrify_http_request_duration_seconds_count').map((s) => [
        s.labels.status_class,
        s.value,
      ]),
    );
    expect(counts).toEqual({ '2xx': 2, '3xx': 1, '4xx': 2, '5xx': 1 });
  });
});
