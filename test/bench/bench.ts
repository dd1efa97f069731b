/** One measured figure of `npm run bench`. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The target this figure is held to, stated in the same unit and with the issue's own comparison, if any. */
  target?: { op: '>=' | '<=' | '<'; value: number };
  note?: string;
}

/** A benchmark module in test/bench exports `bench` with this shape. */
export interface Bench {
  title: string;
  run(): Promise<BenchResult[]>;
}

export function meetsTarget(result: BenchResult): boolean | undefined {
  if (!result.target) return undefined;
  const { op, value } = result.target;
  if (op === '>=') return result.value >= value;
  return op === '<' ? result.value < value : result.value <= value;
}
