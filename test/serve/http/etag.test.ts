import { describe, expect, it } from 'vitest';
import {
  canonicalUrl,
  dataEtag,
  encodingEtag,
  ifNoneMatchMatches,
  notModifiedEtag,
} from '../../../serve/http/etag.ts';

describe('canonicalUrl', () => {
  it('sorts parameters by name, keeping the order of repeated names', () => {
    expect(canonicalUrl('/v1/calc?zip=80212&items=b&owner=homeowner&items=a')).toBe(
      '/v1/calc?items=b&items=a&owner=homeowner&zip=80212',
    );
  });
  it('normalises encodings and drops an empty query', () => {
    expect(canonicalUrl('/v1/x?name=a%20b')).toBe(canonicalUrl('/v1/x?name=a+b'));
    expect(canonicalUrl('/v1/x?')).toBe('/v1/x');
    expect(canonicalUrl('/v1/x')).toBe('/v1/x');
  });
});

describe('dataEtag', () => {
  const V = 'a1b2c3d4e5f60718';
  const tag = dataEtag(V, 'snap-a', '2026-11-21', '/v1/calc?zip=80212&owner=renter');
  it('is a quoted base64url SHA-1 of what names the request, so a URL is named by its canonical form', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(dataEtag(V, 'snap-a', '2026-11-21', '/v1/calc?zip=80212&owner=renter')).toBe(tag);
    expect(dataEtag(V, 'snap-a', '2026-11-21', canonicalUrl('/v1/calc?owner=renter&zip=80212'))).toBe(
      dataEtag(V, 'snap-a', '2026-11-21', canonicalUrl('/v1/calc?zip=80212&owner=renter')),
    );
  });
  it('is the same in every process given the same answer version, and changes with it', () => {
    expect(dataEtag('a1b2c3d4e5f60718', 'snap-a', '2026-11-21', '/v1/calc?zip=80212&owner=renter')).toBe(
      '"aRN8gIIWbf0mH5ocLDAMCEN28_o"',
    );
    expect(dataEtag('ffffffffffffffff', 'snap-a', '2026-11-21', '/v1/calc?zip=80212&owner=renter')).not.toBe(
      tag,
    );
  });
  it('changes with the snapshot, the as-of date and the request', () => {
    expect(dataEtag(V, 'snap-b', '2026-11-21', '/v1/calc?zip=80212&owner=renter')).not.toBe(tag);
    expect(dataEtag(V, 'snap-a', '2026-11-22', '/v1/calc?zip=80212&owner=renter')).not.toBe(tag);
    expect(dataEtag(V, 'snap-a', '2026-11-21', '/v1/calc?zip=80212&owner=homeowner')).not.toBe(tag);
  });
});

describe('ifNoneMatchMatches', () => {
  const etag = '"abc"';
  it('matches the same tag, a list containing it and its weak form', () => {
    expect(ifNoneMatchMatches('"abc"', etag)).toBe(true);
    expect(ifNoneMatchMatches('"x", "abc" ,"y"', etag)).toBe(true);
    expect(ifNoneMatchMatches('W/"abc"', etag)).toBe(true);
  });
  it('does not match no header, another tag, an unquoted value or "*"', () => {
    expect(ifNoneMatchMatches('*', etag)).toBe(false);
    expect(ifNoneMatchMatches(undefined, etag)).toBe(false);
    expect(ifNoneMatchMatches('"abd"', etag)).toBe(false);
    expect(ifNoneMatchMatches('abc', etag)).toBe(false);
  });
});

describe('encodingEtag', () => {
  it('gives each coding its own strong tag, the unencoded answer keeping the plain one', () => {
    expect(encodingEtag('"AbC_1-x"', 'identity')).toBe('"AbC_1-x"');
    expect(encodingEtag('"AbC_1-x"', 'br')).toBe('"AbC_1-x-br"');
    expect(encodingEtag('"AbC_1-x"', 'gzip')).toBe('"AbC_1-x-gz"');
  });
});

describe('notModifiedEtag', () => {
  const etag = '"AbC_1-x"';
  it('matches the tag of the coding the answer would be sent in, and answers with it', () => {
    expect(notModifiedEtag('"AbC_1-x-br"', etag, 'br')).toBe('"AbC_1-x-br"');
    expect(notModifiedEtag('"other", W/"AbC_1-x-gz"', etag, 'gzip')).toBe('"AbC_1-x-gz"');
    expect(notModifiedEtag('"AbC_1-x"', etag, 'identity')).toBe('"AbC_1-x"');
  });
  it('matches the unencoded answer whatever the coding: every client can use it', () => {
    expect(notModifiedEtag('"AbC_1-x"', etag, 'br')).toBe('"AbC_1-x"');
    expect(notModifiedEtag('"AbC_1-x"', etag, 'gzip')).toBe('"AbC_1-x"');
  });
  it('does not match another coding’s tag, another answer’s, or no header', () => {
    expect(notModifiedEtag('"AbC_1-x-br"', etag, 'gzip')).toBeUndefined();
    expect(notModifiedEtag('"AbC_1-x-gz"', etag, 'identity')).toBeUndefined();
    expect(notModifiedEtag('"AbC_1-y"', etag, 'br')).toBeUndefined();
    expect(notModifiedEtag(undefined, etag, 'br')).toBeUndefined();
  });
});
