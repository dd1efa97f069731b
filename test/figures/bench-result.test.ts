import { describe, expect, it } from 'vitest';
import { meetsTarget, type BenchResult } from './bench-result.ts';

const figure = (value: number, target?: BenchResult['target']): BenchResult => ({
  name: 'p99 latency',
  value,
  unit: 'ms',
  ...(target ? { target } : {}),
});

describe('a bench figure against its target', () => {
  it('holds "< 20 ms" strictly: 20 ms misses it, 19 ms meets it', () => {
    expect(meetsTarget(figure(20, { op: '<', value: 20 }))).toBe(false);
    expect(meetsTarget(figure(19, { op: '<', value: 20 }))).toBe(true);
  });

  it('holds "≤" and "≥" inclusively', () => {
    expect(meetsTarget(figure(15, { op: '<=', value: 15 }))).toBe(true);
    expect(meetsTarget(figure(16, { op: '<=', value: 15 }))).toBe(false);
    expect(meetsTarget(figure(0.5, { op: '>=', value: 0.5 }))).toBe(true);
    expect(meetsTarget(figure(0.49, { op: '>=', value: 0.5 }))).toBe(false);
  });

  it('has no verdict for a figure without a target', () => {
    expect(meetsTarget(figure(7))).toBeUndefined();
  });
});
