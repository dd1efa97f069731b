import { describe, expect, it } from 'vitest';
import { answerFileRequest, type FileValidators } from '../../../serve/http/byte-range.ts';

/** A table file of 612,337 bytes of the snapshot 20261121T120000Z-3f9a1c. */
const FILE: FileValidators = {
  size: 612_337,
  etag: '"20261121T120000Z-3f9a1c.9b1f0c6d2e8a4b7c"',
  lastModified: 'Sat, 21 Nov 2026 12:00:00 GMT',
};
const OLDER_ETAG = '"20261114T120000Z-77c2e0.1d0e9f8a7b6c5d4e"';

describe('answerFileRequest', () => {
  it('answers a plain GET with the whole file', () => {
    expect(answerFileRequest({}, FILE)).toEqual({ status: 200 });
  });

  it.each([
    ['the first bytes', 'bytes=0-3', 0, 3],
    ['an open-ended range', 'bytes=600000-', 600_000, 612_336],
    ['the last bytes (a suffix)', 'bytes=-8', 612_329, 612_336],
    ['a range ending past the end, cut at the end', 'bytes=612000-700000', 612_000, 612_336],
    ['overlapping ranges, combined into one', 'bytes=0-99,50-199', 0, 199],
    ['spaces around the range', 'bytes= 10-19', 10, 19],
  ])('answers %s with 206 and its slice', (_case, range, start, end) => {
    expect(answerFileRequest({ range }, FILE)).toEqual({ status: 206, start, end });
  });

  it.each([
    ['starting at the end', 'bytes=612337-'],
    ['starting past the end', 'bytes=900000-900010'],
    ['reversed', 'bytes=20-10'],
    ['without positions it can read', 'bytes=abc'],
  ])('answers a byte range %s with 416 (no byte of the file satisfies it)', (_case, range) => {
    expect(answerFileRequest({ range }, FILE)).toEqual({ status: 416 });
  });

  it.each([
    ['without a unit', '0-99'],
    ['in another unit', 'items=0-5'],
    ['of several disjoint ranges', 'bytes=0-9,100-109'],
  ])('ignores a Range header %s: the whole file (200)', (_case, range) => {
    expect(answerFileRequest({ range }, FILE)).toEqual({ status: 200 });
  });

  it('answers 304 when If-None-Match names the file, before looking at the range', () => {
    expect(answerFileRequest({ 'if-none-match': FILE.etag, range: 'bytes=0-3' }, FILE)).toEqual({
      status: 304,
    });
    expect(answerFileRequest({ 'if-none-match': `${OLDER_ETAG}, ${FILE.etag}` }, FILE)).toEqual({
      status: 304,
    });
    expect(answerFileRequest({ 'if-none-match': OLDER_ETAG }, FILE)).toEqual({ status: 200 });
  });

  it('sends the slice only when If-Range names these bytes, by strong ETag or exact Last-Modified', () => {
    const range = 'bytes=100-199';
    const slice = { status: 206, start: 100, end: 199 };
    expect(answerFileRequest({ range, 'if-range': FILE.etag }, FILE)).toEqual(slice);
    expect(answerFileRequest({ range, 'if-range': FILE.lastModified }, FILE)).toEqual(slice);
    // Another snapshot's bytes, a weak tag, an earlier or unreadable date: the whole current file instead.
    for (const ifRange of [OLDER_ETAG, `W/${FILE.etag}`, 'Fri, 20 Nov 2026 12:00:00 GMT', 'yesterday']) {
      expect(answerFileRequest({ range, 'if-range': ifRange }, FILE), ifRange).toEqual({ status: 200 });
    }
  });

  it('does not turn a stale If-Range with a range past the end into a 416: the whole file answers', () => {
    expect(answerFileRequest({ range: 'bytes=999999-', 'if-range': OLDER_ETAG }, FILE)).toEqual({
      status: 200,
    });
  });
});
