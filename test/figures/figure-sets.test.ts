import { describe, expect, it } from 'vitest';
import { benchSetName, figureSet, formatMeasured, renderBenchTable } from './figure-sets.ts';

describe('figure sets', () => {
  it('names a bench set after its file', () => {
    expect(benchSetName('simulate.bench.ts')).toBe('bench-simulate');
    expect(figureSet('bench-simulate')?.command).toBe('npm run bench -- simulate');
    expect(figureSet('conformance')?.command).toBe('npm run test:conformance');
    expect(figureSet('bench')).toBeUndefined();
    expect(figureSet('nosuch')).toBeUndefined();
  });

  it('writes a measured value to at most 3 significant digits and a ratio to 2 decimals', () => {
    expect(formatMeasured(39709, 'req/s')).toBe('39,700');
    expect(formatMeasured(272.81234, 'clusters/s')).toBe('273');
    expect(formatMeasured(11.271, 's')).toBe('11.3');
    expect(formatMeasured(0.0022345, 's')).toBe('0.00223');
    expect(formatMeasured(3, 'ms')).toBe('3');
    expect(formatMeasured(0.7367161410018553, 'ratio')).toBe('0.74');
    expect(formatMeasured(1.0129857544335692, 'ratio')).toBe('1.01');
    expect(formatMeasured(1.8712, '×')).toBe('1.87');
  });

  it('renders a bench as a list: the machine and rounding, then each figure with its target, met or not, and note', () => {
    const list = renderBenchTable('simulate', {
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
        {
          name: 'calculator, cached: throughput',
          value: 39709,
          unit: 'req/s',
          note: 'bare static 53900 req/s',
        },
        { name: 'calculator, cached: throughput / bare static', value: 0.7367, unit: 'ratio' },
        { name: 'calculator, uncached: p99 latency', value: 6, unit: 'ms', target: { op: '<=', value: 15 } },
        {
          name: 'national precompute',
          value: 301.4,
          unit: 's',
          note:
            'measured on 41 of 3109 counties, 820 clusters (485 supported), N = 400, 8 upgrades, 62180 clusters at ' +
            "the subset's clusters/s\nwith line breaks folded",
        },
      ],
    });
    expect(list).toBe(
      [
        'Written by `npm run bench -- simulate` on 2026-11-26 03:10 UTC: 2 × AMD EPYC 7B13, Node v20.20.2, load average 0.4 at',
        'the start. Values are rounded to 3 significant digits, ratios to 2 decimals; how much runs differ:',
        '[spread](performance.md#reading-the-figures).',
        '',
        '- 2 workers: 273 clusters/s',
        '- speed-up: 1.78 ×, target ≥ 1.7: met — ceiling | 1.68×',
        '- peak RSS: 2,150 MB, target < 2,000: **missed**',
        '- calculator, cached:',
        '  - throughput: 39,700 req/s — bare static 53900 req/s',
        '  - throughput / bare static: 0.74 ratio',
        '- calculator, uncached: p99 latency: 6 ms, target ≤ 15: met',
        '- national precompute: 301 s — measured on 41 of 3109 counties, 820 clusters (485 supported), N = 400, 8 upgrades, 62180',
        "  clusters at the subset's clusters/s with line breaks folded",
      ].join('\n'),
    );
    expect(Math.max(...list.split('\n').map((line) => line.length))).toBeLessThanOrEqual(120);
  });
});
