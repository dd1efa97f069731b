import { z } from 'zod';

/** One measured figure of `npm run bench`, as the bench figures files hold it. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The target this figure is held to, stated in the same unit and with the issue's own comparison, if any. */
  target?: { op: '>=' | '<=' | '<'; value: number };
  note?: string;
}

export const benchResultSchema: z.ZodType<BenchResult> = z.object({
  name: z.string(),
  value: z.number(),
  unit: z.string(),
  target: z.object({ op: z.enum(['>=', '<=', '<']), value: z.number() }).optional(),
  note: z.string().optional(),
});

/** Whether a figure meets its target; undefined when it has none. */
export function meetsTarget(result: BenchResult): boolean | undefined {
  if (!result.target) return undefined;
  const { op, value } = result.target;
  if (op === '>=') return result.value >= value;
  return op === '<' ? result.value < value : result.value <= value;
}
