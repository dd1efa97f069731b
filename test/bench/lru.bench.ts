import { LruCache } from '../../serve/http/lru-cache.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';

/*
 * What a hit costs in the response cache's LRU when one key is asked again and again (a popular URL)
 * while the cache holds many others: the state of a server that has answered for a while. Beside it,
 * the pattern it replaced, a Map that deletes and re-inserts the key on every hit to keep it last: V8
 * leaves a deleted entry in the key's bucket each time until the table is rehashed, so each hit walks
 * past the earlier ones, and a hit costs in proportion to the entries held.
 */

const ENTRY_COUNTS = [16, 1_000, 10_000] as const;
/** The response cache's most entries (RESPONSE_CACHE_MAX_ENTRIES). */
const FULL_CACHE = 10_000;
const HITS = 200_000;

/** A key shaped like the response cache's: a route and a named answer. */
const keyOf = (i: number) => `GET /api/v1/calculator\nMA|02116|ma-eversource|${i}|single|homeowner|3|en`;

/** Nanoseconds per hit on one key, after `warmHits` hits on it, in a cache of `entries` entries. */
function nanosecondsPerHit(
  entries: number,
  hit: (key: string) => unknown,
  set: (key: string) => void,
): number {
  for (let i = 0; i < entries; i++) set(keyOf(i));
  const hot = keyOf(entries >> 1);
  for (let i = 0; i < HITS / 10; i++) hit(hot);
  const start = process.hrtime.bigint();
  for (let i = 0; i < HITS; i++) hit(hot);
  return Number(process.hrtime.bigint() - start) / HITS;
}

/** The replaced pattern: a Map kept in recency order by deleting and re-inserting a key on every hit. */
function reinsertingMap() {
  const map = new Map<string, { key: string }>();
  return {
    hit(key: string) {
      const value = map.get(key);
      if (value !== undefined) {
        map.delete(key);
        map.set(key, value);
      }
      return value;
    },
    set: (key: string) => void map.set(key, { key }),
  };
}

export const bench: Bench = {
  title: 'Response cache LRU: a key asked again and again among many',
  async run(): Promise<BenchResult[]> {
    const results: BenchResult[] = [];
    for (const entries of ENTRY_COUNTS) {
      const lru = new LruCache<{ key: string }>({ maxEntries: FULL_CACHE, maxBytes: 1e9 });
      const ns = nanosecondsPerHit(
        entries,
        (key) => lru.get(key),
        (key) => lru.set(key, { key }, 1_000),
      );
      results.push({
        name: `LruCache hit on one key among ${entries.toLocaleString('en-US')} entries`,
        value: ns,
        unit: 'ns',
        // A cached answer's whole budget beyond the bare route is about 10 µs (`npm run bench -- ceiling`).
        ...(entries === FULL_CACHE ? { target: { op: '<=' as const, value: 1_000 } } : {}),
      });
      const map = reinsertingMap();
      results.push({
        name: `Map re-inserting the key on every hit (the pattern replaced), ${entries.toLocaleString('en-US')} entries`,
        value: nanosecondsPerHit(entries, map.hit, map.set),
        unit: 'ns',
      });
    }
    return results;
  },
};
