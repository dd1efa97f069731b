import { describe, expect, it } from 'vitest';
import { ifNoneMatchMatches, strongEtag } from '../../serve/http/etag.ts';

describe('strongEtag', () => {
  it('is a quoted base64url SHA-1 of the exact bytes, equal for a string and its UTF-8 buffer', () => {
    const body = '{"total":6000}';
    expect(strongEtag(body)).toBe('"DWqftrwDsLXgkvsh31wu2z0VZkY"');
    expect(strongEtag(Buffer.from(body))).toBe(strongEtag(body));
    expect(strongEtag('{"total":6001}')).not.toBe(strongEtag(body));
  });
});

describe('ifNoneMatchMatches', () => {
  const etag = '"abc"';
  it('matches the same tag, a list containing it, its weak form and "*"', () => {
    expect(ifNoneMatchMatches('"abc"', etag)).toBe(true);
    expect(ifNoneMatchMatches('"x", "abc" ,"y"', etag)).toBe(true);
    expect(ifNoneMatchMatches('W/"abc"', etag)).toBe(true);
    expect(ifNoneMatchMatches('*', etag)).toBe(true);
  });
  it('does not match no header, another tag or an unquoted value', () => {
    expect(ifNoneMatchMatches(undefined, etag)).toBe(false);
    expect(ifNoneMatchMatches('"abd"', etag)).toBe(false);
    expect(ifNoneMatchMatches('abc', etag)).toBe(false);
  });
});
