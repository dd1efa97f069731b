import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { JsonBytesWriter, isLent } from '../../../serve/http/json-bytes.ts';
import { compressBody, type Compressor } from '../../../serve/http/body-encoding.ts';
import { SnapshotResponseCache } from '../../../serve/http/response-cache.ts';
import { countingCompressor } from '../../support/serve-fixtures.ts';

describe('SnapshotResponseCache', () => {
  const response = (text: string) => ({
    body: Buffer.from(text),
    compressed: {},
    headers: {},
    etag: `"${text}"`,
  });
  const limits = { maxBytes: 1_000_000, maxEntries: 100 };

  it('says whether an answer of a size could be kept at all, so a cache of 0 bytes costs a request nothing', () => {
    const cache = new SnapshotResponseCache({ maxBytes: 16 * 1024, maxEntries: 10 });
    expect(cache.couldKeep(10_000)).toBe(true);
    // 512 bytes of bookkeeping are charged beside the body.
    expect(cache.couldKeep(16 * 1024 - 512)).toBe(true);
    expect(cache.couldKeep(16 * 1024 - 511)).toBe(false);
    expect(new SnapshotResponseCache({ maxBytes: 0, maxEntries: 10 }).couldKeep(1)).toBe(false);
    expect(new SnapshotResponseCache({ maxBytes: 1_000_000, maxEntries: 0 }).couldKeep(1)).toBe(false);
  });

  it('keeps answers per snapshot and as-of date', () => {
    const cache = new SnapshotResponseCache(limits);
    const a = { id: 'a' };
    expect(cache.lookup(a, '2026-11-21', '/x')).toBeUndefined();
    cache.store(a, '2026-11-21', '/x', response('one'));
    expect(cache.lookup(a, '2026-11-21', '/x')?.etag).toBe('"one"');
    expect(cache.lookup(a, '2026-11-22', '/x')).toBeUndefined();
    // The date moved on: the previous day's answers are gone.
    expect(cache.lookup(a, '2026-11-21', '/x')).toBeUndefined();
  });

  it('drops the old snapshot’s answers on the first lookup for a new one, and refuses late ones', () => {
    const cache = new SnapshotResponseCache(limits);
    const [a, b] = [{ id: 'a' }, { id: 'b' }];
    cache.lookup(a, '2026-11-21', '/x');
    cache.store(a, '2026-11-21', '/x', response('from-a'));
    expect(cache.lookup(b, '2026-11-21', '/x')).toBeUndefined();
    expect(cache.usage).toEqual({ entries: 0, bytes: 0 });
    // A request pinned to a before the swap finishes now: its answer must not be served for b.
    cache.store(a, '2026-11-21', '/y', response('late-from-a'));
    expect(cache.lookup(b, '2026-11-21', '/y')).toBeUndefined();
    expect(cache.usage.entries).toBe(0);
  });
});

describe('SnapshotResponseCache names', () => {
  const limits = { maxBytes: 1_000_000, maxEntries: 100 };

  it('knows the name a route gave a URL from its second naming on, per snapshot and as-of date', () => {
    const cache = new SnapshotResponseCache(limits);
    const [a, b] = [{ id: 'a' }, { id: 'b' }];
    cache.rememberName(a, '2026-11-23', '/q?n=2', 'even');
    expect(cache.knownName(a, '2026-11-23', '/q?n=2')).toBeUndefined();
    cache.rememberName(a, '2026-11-23', '/q?n=2', 'even');
    expect(cache.knownName(a, '2026-11-23', '/q?n=2')).toBe('even');
    expect(cache.knownName(a, '2026-11-23', '/q?n=4')).toBeUndefined();
    // The next day, and another snapshot, start from no names.
    expect(cache.knownName(a, '2026-11-24', '/q?n=2')).toBeUndefined();
    cache.rememberName(a, '2026-11-24', '/q?n=2', 'even next day');
    cache.rememberName(a, '2026-11-24', '/q?n=2', 'even next day');
    expect(cache.knownName(a, '2026-11-24', '/q?n=2')).toBe('even next day');
    expect(cache.knownName(b, '2026-11-24', '/q?n=2')).toBeUndefined();
  });

  it('remembers at most 512 URLs, then starts again from none', () => {
    const cache = new SnapshotResponseCache({ maxBytes: 1_000_000, maxEntries: 10_000 });
    const snapshot = {};
    const name = (url: string) => {
      // Kept from a URL's second naming on.
      cache.rememberName(snapshot, '2026-11-23', url, `name of ${url}`);
      cache.rememberName(snapshot, '2026-11-23', url, `name of ${url}`);
    };
    const known = (url: string) => cache.knownName(snapshot, '2026-11-23', url);
    for (let n = 0; n < 512; n++) name(`/q?n=${n}`);
    expect([known('/q?n=0'), known('/q?n=511')]).toEqual(['name of /q?n=0', 'name of /q?n=511']);
    name('/q?n=512'); // the 513th URL kept: the 512 before it are forgotten
    expect([known('/q?n=0'), known('/q?n=511')]).toEqual([undefined, undefined]);
    expect(known('/q?n=512')).toBe('name of /q?n=512');
  });

  it('remembers no name with a cache of 0 bytes', () => {
    const cache = new SnapshotResponseCache({ maxBytes: 0, maxEntries: 100 });
    for (let i = 0; i < 3; i++) cache.rememberName({}, '2026-11-23', '/q?n=2', 'even');
    expect(cache.knownName({}, '2026-11-23', '/q?n=2')).toBeUndefined();
  });
});

describe('SnapshotResponseCache and lent answers', () => {
  const snapshot = {};
  const lentAnswer = (text: string) => new JsonBytesWriter(64).begin().ascii(text).lend();

  it('keeps a copy of a lent body, so the answer it keeps survives the writer reusing its buffer', () => {
    const cache = new SnapshotResponseCache({ maxBytes: 1_000_000, maxEntries: 10 });
    cache.lookup(snapshot, '2026-11-23', 'POST /a');
    const answer = lentAnswer('{"impact":12.35}');
    cache.store(snapshot, '2026-11-23', 'POST /a', {
      body: answer.body,
      compressed: {},
      headers: {},
      etag: '"t"',
    });
    answer.body.fill(0x20); // the writer's next answer overwrites the lent memory
    const kept = cache.lookup(snapshot, '2026-11-23', 'POST /a')!;
    expect(kept.body.toString()).toBe('{"impact":12.35}');
    expect(isLent(kept.body)).toBe(false);
  });

  it('keeps an owned body as it is, and copies nothing it would not keep', () => {
    const cache = new SnapshotResponseCache({ maxBytes: 1_000_000, maxEntries: 10 });
    cache.lookup(snapshot, '2026-11-23', 'GET /b');
    const owned = Buffer.from('{"owned":true}');
    cache.store(snapshot, '2026-11-23', 'GET /b', { body: owned, compressed: {}, headers: {}, etag: '"u"' });
    expect(cache.lookup(snapshot, '2026-11-23', 'GET /b')!.body).toBe(owned);

    const none = new SnapshotResponseCache({ maxBytes: 0, maxEntries: 10 });
    none.lookup(snapshot, '2026-11-23', 'POST /a');
    none.store(snapshot, '2026-11-23', 'POST /a', {
      body: lentAnswer('{"impact":1}').body,
      compressed: {},
      headers: {},
      etag: '"t"',
    });
    expect(none.usage).toEqual({ entries: 0, bytes: 0 });
  });
});

/** A cache holding one answer of 6 KB kept for '/x' (looked up once first, as a miss, so it is kept). */
function cacheKeepingAnswer(compress: Compressor) {
  const cache = new SnapshotResponseCache({ maxBytes: 1_000_000, maxEntries: 100 }, compress);
  const snapshot = {};
  cache.lookup(snapshot, '2026-11-21', '/x');
  const body = Buffer.from(JSON.stringify({ pad: 'abc'.repeat(2000) }));
  cache.store(snapshot, '2026-11-21', '/x', { body, compressed: {}, headers: {}, etag: '"t"' });
  return { cache, snapshot, body };
}

describe('SnapshotResponseCache compressions', () => {
  it('charges the compressed bodies kept to the cache’s bytes', async () => {
    const { cache, snapshot, body } = cacheKeepingAnswer(countingCompressor().compress);
    const unencoded = cache.usage.bytes;
    const kept = cache.lookup(snapshot, '2026-11-21', '/x')!;
    const br = await cache.bodyIn(snapshot, '2026-11-21', '/x', kept, 'br');
    expect(cache.usage).toEqual({ entries: 1, bytes: unencoded + br.length });
    const gzip = await cache.bodyIn(snapshot, '2026-11-21', '/x', kept, 'gzip');
    expect(cache.usage).toEqual({ entries: 1, bytes: unencoded + br.length + gzip.length });
    expect(cache.bodyIn(snapshot, '2026-11-21', '/x', kept, 'identity')).toBe(body);
  });

  it('compresses a kept answer once for the requests that ask for a coding while it is being compressed', async () => {
    const { compress, calls } = countingCompressor();
    const { cache, snapshot, body } = cacheKeepingAnswer(compress);
    const kept = cache.lookup(snapshot, '2026-11-21', '/x')!;
    const [first, second] = [
      cache.bodyIn(snapshot, '2026-11-21', '/x', kept, 'br'),
      cache.bodyIn(snapshot, '2026-11-21', '/x', kept, 'br'),
    ];
    expect(second).toBe(first);
    const compressed = await first;
    expect(calls).toEqual(['br']);
    expect(cache.bodyIn(snapshot, '2026-11-21', '/x', kept, 'br')).toBe(compressed);
    expect(brotliDecompressSync(compressed).equals(body)).toBe(true);
  });

  it('compresses again after a compression failed, rather than handing the failure to later requests', async () => {
    let fail = true;
    const compress: Compressor = async (body, encoding) => {
      if (fail) throw new Error('brotli ran out of memory');
      return compressBody(body, encoding);
    };
    const { cache, snapshot, body } = cacheKeepingAnswer(compress);
    const kept = cache.lookup(snapshot, '2026-11-21', '/x')!;
    await expect(cache.bodyIn(snapshot, '2026-11-21', '/x', kept, 'br')).rejects.toThrow(
      'brotli ran out of memory',
    );
    fail = false;
    const compressed = await cache.bodyIn(snapshot, '2026-11-21', '/x', kept, 'br');
    expect(brotliDecompressSync(compressed).equals(body)).toBe(true);
  });
});
