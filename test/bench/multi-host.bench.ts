import { HOSTS, runMultiHostSoak } from '../support/deployment/multi-host-soak.ts';
import type { Bench } from './bench.ts';
import { loadNote } from './server-processes.ts';

const LOAD_SECONDS = 60;
/** What 2 shared cores hold beside 3 brokers' JVMs, SeaweedFS, 3 replicas and 2 workers. */
const REQUESTS_PER_SECOND = 100;
export const bench: Bench = {
  title: `A deployment on ${HOSTS.length} hosts (network namespaces), operated under ${LOAD_SECONDS} s of load`,
  async run() {
    const result = await runMultiHostSoak({
      loadSeconds: LOAD_SECONDS,
      requestsPerSecond: REQUESTS_PER_SECOND,
      log: (line) => console.log(`  ${line}`),
    });
    const snapshots = Object.entries(result.bySnapshot)
      .map(([id, count]) => `${id}: ${count}`)
      .join(', ');
    return [
      {
        name: 'failed client requests (non-200 or connection error)',
        value: result.failed,
        unit: 'requests',
        target: { op: '<=', value: 0 },
        note: `${result.requests} requests in ${result.seconds.toFixed(0)} s at ${REQUESTS_PER_SECOND} req/s; ${result.failures.slice(0, 3).join(' | ')}`,
      },
      {
        name: 'worst client latency',
        value: result.maxMs,
        unit: 'ms',
        target: { op: '<=', value: 3000 },
        note: `slowest: ${result.slowest.join('; ')}`,
      },
      { name: 'latency p99', value: result.p99Ms, unit: 'ms', note: loadNote() },
      { name: 'latency p50', value: result.p50Ms, unit: 'ms' },
      {
        name: 'every replica on the new snapshot, after CURRENT named it (publish)',
        value: result.publishToAllMs,
        unit: 'ms',
        target: { op: '<=', value: 5000 },
        note: 'the last of the 3 replicas’ /healthz naming it, probed every 100 ms',
      },
      {
        name: 'every replica on the older snapshot, after CURRENT named it (rollback)',
        value: result.rollbackToAllMs,
        unit: 'ms',
        target: { op: '<=', value: 5000 },
      },
      {
        name: 'calculator bodies not from the snapshot their X-Snapshot-Id names',
        value: result.bodiesMismatched,
        unit: 'responses',
        target: { op: '<=', value: 0 },
        note: `${result.bodiesChecked} checked; per snapshot: ${snapshots}`,
      },
      {
        name: 'the replica cut off the store and the brokers: until /healthz says the lake is unreachable',
        value: result.cut.unreachableAfterMs,
        unit: 'ms',
        note: `its /healthz answered ${result.cut.healthzStatuses.join(', ')} throughout, HAProxy had it ${result.cut.haproxyStates.join(', ')}; reachable again ${result.cut.reachableAgainAfterMs} ms after the restore; ${result.cut.error}`,
      },
      {
        name: `broker ${result.brokerKilled} killed with SIGKILL: until it answers again, restarted`,
        value: result.brokerBackMs,
        unit: 'ms',
      },
      {
        name: 'operations during the load',
        value: result.events.length,
        unit: 'events',
        note: result.events.join('; '),
      },
    ];
  },
};
