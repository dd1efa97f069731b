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
  const n = values.length;
  if (n === 0) throw new RangeError('statistics of no values are undefined');
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  // Only six order statistics are needed, so they are selected (quickselect, O(n)) rather than sorted
  // (O(n log n)): the statistics are most of a cluster's cost. The result equals sortedPercentile's.
  const work = scratchOf(n);
  work.set(values);
  let from = 0;
  let last = -1;
  const orderStatistic = (k: number): number => {
    if (k !== last) {
      select(work, k, from, n - 1);
      from = k + 1;
      last = k;
    }
    return work[k]!;
  };
  const percentile = (p: number): number => {
    const h = (n - 1) * p;
    const below = Math.floor(h);
    const low = orderStatistic(below);
    if (below + 1 >= n || h === below) return low;
    return low + (h - below) * (orderStatistic(below + 1) - low);
  };
  const p20 = percentile(0.2);
  const median = percentile(0.5);
  const p80 = percentile(0.8);
  return { mean: sum / n, median, p20, p80 };
}

let scratch = new Float64Array(512);
function scratchOf(n: number): Float64Array {
  if (scratch.length < n) scratch = new Float64Array(n * 2);
  return scratch.subarray(0, n);
}

/**
 * Rearranges a[lo..hi] so that a[k] holds the value it would have sorted, with nothing larger before it
 * and nothing smaller after it (Hoare's selection, median-of-three pivot).
 */
function select(a: Float64Array, k: number, lo: number, hi: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    const x = a[lo]!;
    const y = a[mid]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/** Answers carry 4 decimals (REM notes §5.4): a value as a whole number of ten-thousandths. */
export const toTenThousandths = (value: number): number => Math.round(value * 10_000);

/** A whole number of ten-thousandths back as a value (never −0). */
export const fromTenThousandths = (count: number): number => count / 10_000 + 0;

export const round4 = (value: number): number => fromTenThousandths(toTenThousandths(value));
