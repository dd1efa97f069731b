import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonBytesWriter } from '../../../serve/http/json-bytes.ts';

/** What the routes wrote before: the rounded number made into a string. */
const asString = (value: number, decimals: number) =>
  String(Math.round(value * 10 ** decimals) / 10 ** decimals);

const written = (value: number, decimals: number) =>
  new JsonBytesWriter(4).begin().rounded(value, decimals).finish().toString('latin1');

describe('JsonBytesWriter.rounded', () => {
  it('writes a statistic to 4 decimals without trailing zeros', () => {
    expect(written(1234.56789, 4)).toBe('1234.5679');
    expect(written(-287.12, 4)).toBe('-287.12');
    expect(written(0.1 + 0.2, 4)).toBe('0.3');
    expect(written(0.00012, 4)).toBe('0.0001');
    expect(written(5300, 4)).toBe('5300');
    expect(written(-0.0701, 4)).toBe('-0.0701');
  });

  it('rounds halves toward +∞ as Math.round does, and writes −0 as 0', () => {
    expect(written(2.5, 0)).toBe('3');
    expect(written(-2.5, 0)).toBe('-2');
    expect(written(0.125, 2)).toBe('0.13');
    expect(written(-0.00004, 4)).toBe('0');
    expect(written(-0, 2)).toBe('0');
  });

  it('writes values too large for exact digits, and non-finite ones, as String does', () => {
    expect(written(1e21, 0)).toBe('1e+21');
    expect(written(-123456789012345.67, 4)).toBe('-123456789012345.67');
    expect(written(Number.POSITIVE_INFINITY, 4)).toBe('Infinity');
    expect(written(Number.NaN, 2)).toBe('NaN');
  });

  it('writes the same characters as String of the rounded value, for any double and 0 to 6 decimals', () => {
    const magnitudes = fc
      .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: -8, max: 17 }))
      .map(([mantissa, exponent]) => mantissa * 10 ** exponent);
    fc.assert(
      fc.property(fc.oneof(fc.double(), magnitudes), fc.integer({ min: 0, max: 6 }), (value, decimals) => {
        expect(written(value, decimals)).toBe(asString(value, decimals));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('JsonBytesWriter', () => {
  it('joins fragments, ASCII text and numbers into one buffer of the exact length', () => {
    const writer = new JsonBytesWriter(64);
    const body = writer
      .begin()
      .bytes(Buffer.from('{"place":"Doña Ana, NM","value":'))
      .rounded(12.34567, 2)
      .ascii(',"unit":"kWh"}')
      .finish();
    expect(body.toString('utf8')).toBe('{"place":"Doña Ana, NM","value":12.35,"unit":"kWh"}');
    expect(body.length).toBe(Buffer.byteLength(body.toString('utf8')));
  });

  it('writes any number as String does', () => {
    const writer = new JsonBytesWriter(64);
    const values = [0, -0, 5300, -17, 2 ** 53, 0.5, -1e-7, 1e21, Number.NaN];
    const body = values.reduce((w, value) => w.number(value).ascii(' '), writer.begin()).finish();
    expect(body.toString()).toBe('0 0 5300 -17 9007199254740992 0.5 -1e-7 1e+21 NaN ');
  });

  it('copies short and long fragments alike', () => {
    const writer = new JsonBytesWriter(16);
    const long = Buffer.from(`"statement":"${'A model-derived estimate’s words. '.repeat(4)}"`);
    const body = writer.begin().bytes(Buffer.from('{')).bytes(long).bytes(Buffer.from('}')).finish();
    expect(body.toString('utf8')).toBe(`{${long.toString('utf8')}}`);
  });

  it('grows past its first size, and starts each answer afresh', () => {
    const writer = new JsonBytesWriter(8);
    const long = 'x'.repeat(1000);
    expect(writer.begin().ascii(long).rounded(7, 0).finish().toString()).toBe(`${long}7`);
    const next = writer.begin().ascii('[').rounded(-1.5, 1).ascii(']').finish();
    expect(next.toString()).toBe('[-1.5]');
  });

  it('hands out answers that later answers do not overwrite', () => {
    const writer = new JsonBytesWriter(16);
    const first = writer.begin().ascii('first answer').finish();
    writer.begin().ascii('second answer, longer').finish();
    expect(first.toString()).toBe('first answer');
  });

  it('writes a separator byte between fragments', () => {
    const writer = new JsonBytesWriter(4);
    const body = writer.begin().ascii('[1').byte(0x2c).ascii('2]').finish();
    expect(body.toString()).toBe('[1,2]');
  });
});
