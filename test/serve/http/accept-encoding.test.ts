import { describe, expect, it } from 'vitest';
import { negotiateEncoding } from '../../../serve/http/accept-encoding.ts';

describe('negotiateEncoding', () => {
  it.each([
    // What browsers and common clients send.
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br', 'br'],
    // q-values rank; a tie goes to brotli; names are case-insensitive.
    ['gzip;q=1.0, br;q=0.9', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.8', 'br'],
    ['GZIP', 'gzip'],
    ['gzip ; q=0.5, br;q=0.4', 'gzip'],
    // `*` stands for any coding not named: named refusals stay refused.
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
  ] as const)('answers %j in %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });

  it.each([
    [undefined],
    [''],
    ['identity'],
    ['deflate'],
    ['zstd, x-gzip'],
    ['gzip;q=0, identity'],
    ['br;q=0, gzip;q=0'],
    // Refusing every coding, the body as it is included: it is still the answer every client reads.
    ['identity;q=0'],
    ['*;q=0'],
    ['deflate, identity;q=0'],
  ])('answers %j with the body as it is', (header) => {
    expect(negotiateEncoding(header)).toBe('identity');
  });

  it('gives a remembered header the same answer, and keeps answering new ones past the memory bound', () => {
    for (let i = 0; i < 600; i++) expect(negotiateEncoding(`gzip;q=0.9${i}, br;q=0.5`)).toBe('gzip');
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
  });
});
