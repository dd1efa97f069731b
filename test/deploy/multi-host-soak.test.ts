import { describe, expect, it } from 'vitest';
import { haproxyUnavailable } from '../support/deployment/haproxy.ts';
import { runMultiHostSoak } from '../support/deployment/multi-host-soak.ts';
import { netnsUnavailable } from '../support/deployment/netns-hosts.ts';
import { redisUnavailable } from '../support/deployment/redis-server.ts';
import { kafkaUnavailable, seaweedfsUnavailable } from '../support/engines/engines.ts';

// The deployment of docs/deploying.md on several hosts (network namespaces of this machine): 3 Kafka brokers,
// SeaweedFS, Redis, HAProxy, 3 replicas, 2 simulate workers, a pipeline host and a client host, operated under
// a minute of load. The same soak as `npm run bench -- multi-host`, which holds its figures to their speed targets
// (every replica on a new snapshot within 5 s): this spec checks what must hold however loaded the machine is, and
// prints the figures. In clean-clone CI runs a publish reached the last replica after 5.8-6.2 s, in other runs after
// 1.6-2.9 s; replicas' logs put most of it in reloading the incentives module (3-6 s loaded, 0.2-0.5 s opening).
const SPECS = 'the multi-host soak';
const unavailable =
  netnsUnavailable(SPECS) ??
  kafkaUnavailable(SPECS) ??
  seaweedfsUnavailable(SPECS) ??
  haproxyUnavailable() ??
  redisUnavailable();

describe.skipIf(unavailable !== undefined)('a deployment on several hosts, operated under load', () => {
  it('fails no request, keeps every answer under 3 s and every body true to its header, and brings every replica to each new snapshot, while a snapshot is published, a worker and a broker are killed, a replica is cut off and a rollback made', async () => {
    const result = await runMultiHostSoak({ loadSeconds: 60, requestsPerSecond: 100 });
    const { cut } = result;
    console.log(
      `multi-host soak: ${result.requests} requests in ${result.seconds.toFixed(0)} s, ${result.failed} failed; ` +
        `worst ${Math.round(result.maxMs)} ms, p99 ${result.p99Ms.toFixed(1)} ms, p50 ${result.p50Ms.toFixed(1)} ms; ` +
        `every replica on the new snapshot ${result.publishToAllMs} ms after the publish, ` +
        `${result.rollbackToAllMs} ms after the rollback; ${result.bodiesMismatched} of ${result.bodiesChecked} ` +
        `bodies mismatched; the cut replica's /healthz ${cut.healthzStatuses.join(', ')}, HAProxy ` +
        `${cut.haproxyStates.join(', ')}, the lake unreachable after ${cut.unreachableAfterMs} ms, reachable ` +
        `${cut.reachableAgainAfterMs} ms after the restore; broker back in ${result.brokerBackMs} ms; ` +
        `slowest: ${result.slowest.join('; ')}; failures: ${result.failures.join('; ')}; ` +
        `events: ${result.events.join('; ')}`,
    );
    expect(result.failures).toEqual([]);
    expect(result.failed).toBe(0);
    // A steady 100 requests a second for at least the 60 s planned.
    expect(result.seconds).toBeGreaterThanOrEqual(60);
    expect(result.requests).toBeGreaterThanOrEqual(Math.floor(result.seconds * 100) - 100);
    expect(result.maxMs, result.slowest.join('; ')).toBeLessThanOrEqual(3_000);
    // Every answer came from one of the two snapshots, and each calculator body is the one its header names.
    expect(result.second).not.toBe(result.first);
    expect(Object.keys(result.bySnapshot).sort()).toEqual([result.first, result.second].sort());
    expect(result.bodiesChecked).toBeGreaterThan(3_000);
    expect(result.bodiesMismatched).toBe(0);
    // Told on the log, every replica serves what CURRENT names, after a publish and a rollback: within the
    // 30 s that only a replica which missed the announcement and its polls would exceed.
    expect(result.publishToAllMs).toBeLessThanOrEqual(30_000);
    expect(result.rollbackToAllMs).toBeLessThanOrEqual(30_000);
    expect(result.workerKilled).toBe('SIGKILL');
    // The broker killed without warning answers again once restarted on its own data.
    expect(result.brokerBackMs).toBeLessThan(60_000);
    // The replica cut off the store and the brokers kept serving (healthz 200, in HAProxy's pool), said within
    // the store's 5 s request timeout and a poll (2 s) that it cannot reach the lake, and reached it again.
    expect(result.cut).toMatchObject({ healthzStatuses: [200], haproxyStates: ['UP'] });
    expect(result.cut.unreachableAfterMs).toBeLessThanOrEqual(7_500);
    expect(result.cut.error).toMatch(/^lake store s3:\/\/\S+: get CURRENT failed/);
    expect(result.cut.reachableAgainAfterMs).toBeLessThanOrEqual(7_500);
    expect(
      result.events.map((e) =>
        e
          .replace(/^[\d.]+ s: /, '')
          .replace(/\S+T\S+Z-\w+/g, '<id>')
          .replace(/\d+ ms/g, '<n> ms'),
      ),
    ).toEqual([
      'publishing a second snapshot (the pipeline host, one incentive cap changed in its source)',
      'SIGKILL worker-1',
      'every replica serves <id>, <n> ms after CURRENT named it',
      'SIGKILL broker 1 (kafka-1), then restart it',
      'broker 1 answers again',
      'cutting replica-3 off store, kafka-1, kafka-2, kafka-3',
      expect.stringMatching(/^replica-3 says the lake is unreachable: /),
      'replica-3 restored',
      'replica-3 reaches the lake again',
      'rolling back to <id> (npm run lake -- rollback, on the pipeline host)',
      'every replica serves <id> again, <n> ms after CURRENT named it',
    ]);
  }, 600_000);
});
