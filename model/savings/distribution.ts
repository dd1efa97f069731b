/**
 * The four statistics REM reports for every per-home distribution, and the rounding of its answers.
 *
 * Percentiles use the linear method (numpy's default, Hyndman & Fan type 7): with the values sorted
 * ascending and h = (n − 1)·p, the percentile is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). The reference does
 * not document its method (project REM notes §5.4), so this is our stated choice.
 */

/** The p-quantile (0 ≤ p ≤ 1) of values already sorted ascending, by linear interpolation. */
export function sortedPercentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) throw new RangeError('a percentile of no values is undefined');
  const h = (sorted.length - 1) * p;
  const below = Math.floor(h);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (h - below) * (sorted[above]! - sorted[below]!);
}

/** Where summarizeInto puts each statistic, from `at`. */
export const MEAN = 0;
export const MEDIAN = 1;
export const P20 = 2;
export const P80 = 3;
export const SUMMARY_LENGTH = 4;

/**
 * Mean, median, 20th and 80th percentile (unrounded) of values[from … from + n), written to
 * out[at + MEAN … at + P80]; `values` is left as it was. It allocates nothing (no
 * view, no closure, no result object): the simulate stage summarises 360 series per cluster, and what a
 * worker allocates its garbage collector must keep up with on the other core.
 */
export function summarizeInto(
  values: Float64Array,
  from: number,
  n: number,
  out: Float64Array,
  at: number,
): void {
  if (n === 0) throw new RangeError('statistics of no values are undefined');
  if (work.length < n) work = new Float64Array(n * 2);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const value = values[from + i]!;
    sum += value;
    work[i] = value;
  }
  // Only six order statistics are needed, so they are selected (quickselect, O(n)) rather than sorted
  // (O(n log n)): the statistics are most of a cluster's cost. The result equals sortedPercentile's.
  selection.from = 0;
  selection.last = -1;
  out[at + P20] = selectedPercentile(n, 0.2);
  out[at + MEDIAN] = selectedPercentile(n, 0.5);
  out[at + P80] = selectedPercentile(n, 0.8);
  out[at + MEAN] = sum / n;
}

/** summarizeInto's copy of the values, rearranged by the selections. */
let work = new Float64Array(512);
/** Selections so far: work[0 … from) holds nothing larger than work[from …), and work[last] is in place. */
const selection = { from: 0, last: -1 };

function selectedPercentile(n: number, p: number): number {
  const h = (n - 1) * p;
  const below = Math.floor(h);
  const low = orderStatistic(n, below);
  if (below + 1 >= n || h === below) return low;
  return low + (h - below) * (orderStatistic(n, below + 1) - low);
}

/** The k-th smallest of work[0 … n), selected in work[selection.from … n) (asked for in rising k). */
function orderStatistic(n: number, k: number): number {
  if (k !== selection.last) {
    select(work, k, selection.from, n - 1);
    selection.from = k + 1;
    selection.last = k;
  }
  return work[k]!;
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
