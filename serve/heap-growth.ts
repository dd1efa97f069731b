import { setFlagsFromString } from 'node:v8';

/**
 * Bounds how far the JavaScript heap grows past what the last full collection kept (SERVE_HEAP_GROWTH_PERCENT).
 * Left to itself, V8 lets the heap of a busy server grow by a factor of up to 4 before collecting when
 * collecting looks cheap: with ~110 MB of live data (national incentives and REM), the serving process
 * peaked at 450–680 MB RSS under load. V8 reads this flag at every full collection, so setting it once
 * the process runs takes effect. The price is more frequent full collections: at 20 % they cost the
 * varying-income calculator a quarter of its throughput, at 60 % nothing measurable (peak ~330 MB).
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
