import { runReplicasSoak } from '../support/deployment/replicas-soak.ts';
import type { Bench } from './bench.ts';
import { loadNote } from './server-processes.ts';

const LOAD_SECONDS = 60;
const CONNECTIONS = 16;
const THROUGHPUT_SLICE_SECONDS = 8;
export const bench: Bench = {
  title: `HAProxy (deploy/haproxy.cfg) in front of 3 replicas, operated under ${LOAD_SECONDS} s of load`,
  async run() {
    const result = await runReplicasSoak({
      loadSeconds: LOAD_SECONDS,
      connections: CONNECTIONS,
      throughputSliceSeconds: THROUGHPUT_SLICE_SECONDS,
      log: (line) => console.log(`  ${line}`),
    });
    const note = loadNote();
    const snapshots = Object.entries(result.bySnapshot)
      .map(([id, count]) => `${id}: ${count}`)
      .join(', ');
    const { oneReplica, threeReplicas } = result.throughput!;
    return [
      {
        name: 'failed client requests (non-200 or connection error)',
        value: result.failed,
        unit: 'requests',
        target: { op: '<=', value: 0 },
        note: `${result.requests} requests in ${result.seconds.toFixed(0)} s; ${result.failures.slice(0, 3).join(' | ')}`,
      },
      {
        name: 'calculator bodies not from the snapshot their X-Snapshot-Id names',
        value: result.bodiesMismatched,
        unit: 'responses',
        target: { op: '<=', value: 0 },
        note: `${result.bodiesChecked} checked; per snapshot: ${snapshots}`,
      },
      {
        name: 'snapshots answering (the first, the second, nothing else)',
        value: Object.keys(result.bySnapshot).length,
        unit: 'snapshots',
        target: { op: '<=', value: 2 },
      },
      { name: 'latency p50 during the operations', value: result.p50Ms, unit: 'ms' },
      {
        name: 'worst client latency (a replica hung with SIGSTOP included)',
        value: result.maxMs,
        unit: 'ms',
        target: { op: '<=', value: 3000 },
        note: `slowest: ${result.slowest.join('; ')}`,
      },
      {
        name: 'lake downloads through HAProxy, each outlasting timeout server: failed or cut',
        value: result.downloads.failed,
        unit: 'downloads',
        target: { op: '<=', value: 0 },
        note: `${result.downloads.completed} completed of ${result.downloads.table}.parquet (${result.downloads.bytes} B), the longest ${result.downloads.longestSeconds.toFixed(1)} s; ${result.downloads.failures.join(' | ')}`,
      },
      {
        name: 'latency p99 during the operations',
        value: result.p99Ms,
        unit: 'ms',
        note: `${note}; throughput slices: ${THROUGHPUT_SLICE_SECONDS} s each, ${CONNECTIONS} connections`,
      },
      { name: 'throughput, 1 replica (2 in maint)', value: oneReplica, unit: 'req/s', note },
      {
        name: 'throughput, 3 replicas',
        value: threeReplicas,
        unit: 'req/s',
        note: 'same load; 2 shared cores',
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
