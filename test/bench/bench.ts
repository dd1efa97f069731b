import type { BenchResult } from '../figures/bench-result.ts';

/** A benchmark module in test/bench exports `bench` with this shape. */
export interface Bench {
  title: string;
  run(): Promise<BenchResult[]>;
}
