import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How long one turn of the event loop may spend on long preparation before it lets other callbacks run:
 * a server loading a new snapshot goes on answering from the one it serves, and a request arriving
 * meanwhile waits about this long at most (or one step, if a step takes longer).
 */
export const SLICE_MS = 5;

/**
 * Runs `step(0)` … `step(count - 1)` in slices of the event loop's time: once the current turn has spent
 * `sliceMs` on them, the rest waits for the next turn (setImmediate), so requests, timers and I/O run
 * between slices. A step that throws ends the run with its error.
 */
export async function forEachInSlices(
  count: number,
  step: (index: number) => void,
  sliceMs: number = SLICE_MS,
): Promise<void> {
  let turnStart = performance.now();
  for (let index = 0; index < count; index++) {
    step(index);
    if (performance.now() - turnStart >= sliceMs) {
      await nextTurn();
      turnStart = performance.now();
    }
  }
}

/** `items.map(map)` in slices of the event loop's time (see forEachInSlices), for items of a millisecond or so. */
export async function mapInSlices<T, U>(
  items: readonly T[],
  map: (item: T) => U,
  sliceMs: number = SLICE_MS,
): Promise<U[]> {
  const mapped: U[] = [];
  await forEachInSlices(items.length, (index) => mapped.push(map(items[index]!)), sliceMs);
  return mapped;
}
