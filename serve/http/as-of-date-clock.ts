import { asOfDate } from '../../lib/clock.ts';

/**
 * The as-of date for each request: AS_OF_DATE when configured, else today in America/New_York worked
 * out at most once per second of `now` (formatting a date in a time zone costs about 1 µs, a twentieth
 * of a cached answer; the date can then lag midnight by under a second).
 */
export function asOfDateClock(configured: string | undefined, now: () => Date): () => string {
  if (configured) return () => configured;
  let second = Number.NaN;
  let date = '';
  return () => {
    const at = now();
    const atSecond = Math.floor(at.getTime() / 1000);
    if (atSecond !== second) {
      second = atSecond;
      date = asOfDate(undefined, at);
    }
    return date;
  };
}
