import { setFlagsFromString } from 'node:v8';

/**
 * Bounds how far the JavaScript heap grows past what the last full collection kept (SERVE_HEAP_GROWTH_PERCENT).
 * Left to itself, V8 lets the heap of a busy server grow by a factor of up to 4 before collecting when
 * collecting looks cheap, so a server holding the national tables peaks at several times their size under
 * load. V8 reads this flag at every full collection, so setting it once the process runs takes effect.
 * The price is more frequent full collections; the default was chosen where `npm run bench -- incentives`
 * shows no throughput cost (its memory figures are that bench's output).
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
