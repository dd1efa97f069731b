import { describe, expect, it } from 'vitest';
import { LruCache } from '../../../serve/http/lru-cache.ts';

const keys = (cache: LruCache<string>, candidates: string[]) =>
  candidates.filter((key) => cache.get(key) !== undefined);

describe('LruCache', () => {
  it('evicts the least recently used entries once the byte bound would be passed', () => {
    const cache = new LruCache<string>({ maxBytes: 100, maxEntries: 10 });
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(cache.get('a')).toBe('A'); // a is now more recent than b
    cache.set('c', 'C', 40);
    expect(cache.bytes).toBe(80);
    expect(keys(cache, ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('evicts as many entries as a large value needs', () => {
    const cache = new LruCache<string>({ maxBytes: 100, maxEntries: 10 });
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, key.toUpperCase(), 25);
    cache.set('big', 'BIG', 90);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(90);
    expect(cache.get('big')).toBe('BIG');
  });

  it('holds at most maxEntries entries', () => {
    const cache = new LruCache<string>({ maxBytes: 1_000, maxEntries: 2 });
    cache.set('a', 'A', 1);
    cache.set('b', 'B', 1);
    cache.set('c', 'C', 1);
    expect(keys(cache, ['a', 'b', 'c'])).toEqual(['b', 'c']);
  });

  it('keeps nothing when it may hold no entries, whatever bytes it may hold', () => {
    const cache = new LruCache<string>({ maxBytes: 1_000, maxEntries: 0 });
    expect(cache.fits(1)).toBe(false);
    cache.set('a', 'A', 1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not keep a value bigger than the whole cache, and leaves the others alone', () => {
    const cache = new LruCache<string>({ maxBytes: 100, maxEntries: 10 });
    cache.set('a', 'A', 60);
    cache.set('huge', 'HUGE', 101);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.bytes).toBe(60);
  });

  it('replaces a key in place, counting only its new size', () => {
    const cache = new LruCache<string>({ maxBytes: 100, maxEntries: 10 });
    cache.set('a', 'old', 70);
    cache.set('a', 'new', 30);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(30);
    expect(cache.get('a')).toBe('new');
  });

  it('charges a value set again under its key at its new size, even when it is the same object', () => {
    const cache = new LruCache<{ body: string; compressed?: string }>({ maxBytes: 100, maxEntries: 10 });
    const answer: { body: string; compressed?: string } = { body: 'x'.repeat(40) };
    cache.set('a', answer, 40);
    answer.compressed = 'y'.repeat(20);
    cache.set('a', answer, 60);
    expect([cache.size, cache.bytes]).toEqual([1, 60]);
  });
});
