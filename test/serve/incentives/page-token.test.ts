import { describe, expect, it } from 'vitest';
import { decodePageToken, encodePageToken } from '../../../serve/incentives/page-token.ts';

const base64url = (text: string) => Buffer.from(text).toString('base64url');

describe('page tokens', () => {
  it('are base64url text that reads back as the position and snapshot they were made from', () => {
    const token = encodePageToken({ snapshot: '20261121T120000Z-4f2a', after: 99 });
    expect(token).toBe(base64url('{"snapshot":"20261121T120000Z-4f2a","after":99}'));
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePageToken(token)).toEqual({ snapshot: '20261121T120000Z-4f2a', after: 99 });
  });

  it('refuse text that is not base64url, or not JSON once decoded', () => {
    expect(decodePageToken('abc+/==')).toBeNull();
    expect(decodePageToken('not a token')).toBeNull();
    expect(decodePageToken(base64url('{"snapshot":"s1",'))).toBeNull();
  });

  it('refuse JSON that is not a position in a snapshot', () => {
    expect(decodePageToken(base64url('[1,2]'))).toBeNull();
    expect(decodePageToken(base64url('{"snapshot":"s1"}'))).toBeNull();
    expect(decodePageToken(base64url('{"snapshot":"","after":3}'))).toBeNull();
    expect(decodePageToken(base64url('{"snapshot":"s1","after":-1}'))).toBeNull();
    expect(decodePageToken(base64url('{"snapshot":"s1","after":2.5}'))).toBeNull();
    expect(decodePageToken(base64url('{"snapshot":"s1","after":"3"}'))).toBeNull();
    expect(decodePageToken(base64url('{"snapshot":"s1","after":3,"offset":0}'))).toBeNull();
  });
});
