import { describe, expect, it } from 'vitest';
import { benchSetName, figureSet, renderBenchTable } from './figure-sets.ts';

describe('figure sets', () => {
  it('names a bench set after its file', () => {
    expect(benchSetName('simulate.bench.ts')).toBe('bench-simulate');
    expect(figureSet('bench-simulate')?.command).toBe('npm run bench -- simulate');
    expect(figureSet('conformance')?.command).toBe('npm run test:conformance');
    expect(figureSet('bench')).toBeUndefined();
    expect(figureSet('nosuch')).toBeUndefined();
  });

  it('renders a bench as a table with the machine, each figure, its target and whether it was met', () => {
    const table = renderBenchTable('simulate', {
      measuredAt: '2026-11-26T03:10:42.000Z',
      machine: { cpus: 2, cpuModel: 'AMD EPYC 7B13', node: 'v20.20.2', loadAverage: 0.43 },
      results: [
        { name: '2 workers', value: 272.81234, unit: 'clusters/s' },
        {
          name: 'speed-up',
          value: 1.775,
          unit: '×',
          target: { op: '>=', value: 1.7 },
          note: 'ceiling | 1.68×',
        },
        { name: 'peak RSS', value: 2150, unit: 'MB', target: { op: '<', value: 2000 } },
      ],
    });
    expect(table).toBe(
      [
        'Written by `npm run bench -- simulate` on 2026-11-26 03:10 UTC: 2 × AMD EPYC 7B13, Node v20.20.2, load average 0.4 at the start.',
        '',
        '| figure | value | target | note |',
        '| --- | ---: | --- | --- |',
        '| 2 workers | 272.8 clusters/s |  |  |',
        '| speed-up | 1.775 × | ≥ 1.7: met | ceiling \\| 1.68× |',
        '| peak RSS | 2,150 MB | < 2,000: **missed** |  |',
      ].join('\n'),
    );
  });
});
