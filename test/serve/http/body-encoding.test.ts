import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MIN_COMPRESSED_BYTES, compressBody, encodingFor } from '../../../serve/http/body-encoding.ts';

/** A calculator-like answer of about 20 KB: repeated keys and program names, varied amounts. */
const answer = Buffer.from(
  JSON.stringify({
    is_under_80_ami: true,
    is_under_150_ami: true,
    incentives: Array.from({ length: 60 }, (_, i) => ({
      id: `MA-${100 + i}`,
      program: `Mass Save Heat Pump Rebate ${i}`,
      items: ['ducted_heat_pump', 'ductless_heat_pump'],
      amount: { type: 'dollar_amount', number: 500 + ((i * 37) % 1900), maximum: 8000 + i },
      start_date: '2025-01-01',
      end_date: '2027-12-31',
    })),
  }),
);

describe('compressBody', () => {
  it('brotli: decompresses to the same bytes, several times smaller', async () => {
    const compressed = await compressBody(answer, 'br');
    expect(brotliDecompressSync(compressed).equals(answer)).toBe(true);
    expect(compressed.length).toBeLessThan(answer.length / 5);
  });

  it('gzip: decompresses to the same bytes, several times smaller', async () => {
    const compressed = await compressBody(answer, 'gzip');
    expect(gunzipSync(compressed).equals(answer)).toBe(true);
    expect(compressed.length).toBeLessThan(answer.length / 5);
  });
});

describe('encodingFor', () => {
  it('sends a body of 1 KB or more in the accepted coding, a shorter one as it is', () => {
    expect(MIN_COMPRESSED_BYTES).toBe(1024);
    expect(encodingFor('br', 1024)).toBe('br');
    expect(encodingFor('gzip', 68_000)).toBe('gzip');
    expect(encodingFor('br', 1023)).toBe('identity');
    expect(encodingFor('gzip', 0)).toBe('identity');
    expect(encodingFor('identity', 68_000)).toBe('identity');
  });
});
