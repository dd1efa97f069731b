/**
 * The four statistics REM reports for every per-home distribution, and the rounding of its answers.
 *
 * Percentiles use the linear method (numpy's default, Hyndman & Fan type 7): with the values sorted
 * ascending and h = (n − 1)·p, the percentile is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). The reference does
 * not document its method (project REM notes §5.4), so this is our stated choice.
 */

export interface Summary {
  mean: number;
  median: number;
  p20: number;
  p80: number;
}

/** The p-quantile (0 ≤ p ≤ 1) of values already sorted ascending, by linear interpolation. */
export function sortedPercentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) throw new RangeError('a percentile of no values is undefined');
  const h = (sorted.length - 1) * p;
  const below = Math.floor(h);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (h - below) * (sorted[above]! - sorted[below]!);
}

/** Mean, median, 20th and 80th percentile of `values` (unrounded; `values` is left as it was). */
export function summarize(values: Float64Array): Summary {
  if (values.length === 0) throw new RangeError('statistics of no values are undefined');
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  const sorted = Float64Array.from(values).sort();
  return {
    mean: sum / values.length,
    median: sortedPercentile(sorted, 0.5),
    p20: sortedPercentile(sorted, 0.2),
    p80: sortedPercentile(sorted, 0.8),
  };
}

/** Answers carry 4 decimals (REM notes §5.4): a value as a whole number of ten-thousandths. */
export const toTenThousandths = (value: number): number => Math.round(value * 10_000);

/** A whole number of ten-thousandths back as a value (never −0). */
export const fromTenThousandths = (count: number): number => count / 10_000 + 0;

export const round4 = (value: number): number => fromTenThousandths(toTenThousandths(value));
