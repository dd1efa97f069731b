import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runReplicasSoak } from '../support/deployment/replicas-soak.ts';
import type { Bench } from './bench.ts';
import { loadNote, ROOT } from './server-processes.ts';

const LOAD_SECONDS = 60;
const CONNECTIONS = 16;
const THROUGHPUT_SLICE_SECONDS = 8;
/** The section of docs/deploying.md this bench writes; nothing between the markers is typed by hand. */
const DOC = path.join(ROOT, 'docs/deploying.md');
const START = '<!-- replicas-bench:start -->';
const END = '<!-- replicas-bench:end -->';

async function writeFigures(lines: string[]): Promise<void> {
  const doc = await readFile(DOC, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${DOC} lacks the ${START} … ${END} markers`);
  // Blank lines around the figures, as Prettier formats Markdown.
  await writeFile(DOC, `${doc.slice(0, from + START.length)}\n\n${lines.join('\n')}\n\n${doc.slice(to)}`);
}

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
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    await writeFigures([
      `Last run: ${when} UTC, ${note} (2 cores shared with other work: throughput is noisy).`,
      '',
      `- ${result.requests} requests in ${result.seconds.toFixed(0)} s over ${CONNECTIONS} connections, ` +
        `**${result.failed} failed**; p50 ${result.p50Ms.toFixed(1)} ms, **p99 ${result.p99Ms.toFixed(1)} ms**.`,
      `- Answers per snapshot (X-Snapshot-Id): ${snapshots}; ${result.bodiesChecked} calculator bodies checked ` +
        `against the snapshot their header names, ${result.bodiesMismatched} disagreed.`,
      `- Throughput through HAProxy, ${CONNECTIONS} connections, two alternating ${THROUGHPUT_SLICE_SECONDS} s ` +
        `slices each: 1 replica ${oneReplica.toFixed(0)} req/s, 3 replicas ${threeReplicas.toFixed(0)} req/s.`,
      '- What was done during the load:',
      ...result.events.map((e) => `  - ${e}`),
    ]);
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
      { name: 'latency p99 during the operations', value: result.p99Ms, unit: 'ms', note },
      { name: 'throughput, 1 replica (2 in maint)', value: oneReplica, unit: 'req/s', note },
      {
        name: 'throughput, 3 replicas',
        value: threeReplicas,
        unit: 'req/s',
        note: 'same load; 2 shared cores',
      },
    ];
  },
};
