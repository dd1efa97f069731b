import { describe, expect, it } from 'vitest';
import { RecentKeys } from '../../../serve/http/recent-keys.ts';

const REM_URL = (zip: string) =>
  `/api/v1/rem/address?address=1%20Main%20St%2C%20Town%2C%20RI%20${zip}&upgrade=baseline&heating_fuel=natural_gas`;

describe('RecentKeys', () => {
  it('says a key is new the first time and seen on every later time', () => {
    const recent = new RecentKeys(1024);
    expect(recent.seenBefore(REM_URL('02903'))).toBe(false);
    expect(recent.seenBefore(REM_URL('02903'))).toBe(true);
    expect(recent.seenBefore(REM_URL('02903'))).toBe(true);
  });

  it('tells apart keys that differ in one character, and the empty key', () => {
    const recent = new RecentKeys(1024);
    expect(recent.seenBefore(REM_URL('02903'))).toBe(false);
    expect(recent.seenBefore(REM_URL('02904'))).toBe(false);
    expect(recent.seenBefore('')).toBe(false);
    expect(recent.seenBefore('')).toBe(true);
  });

  it('remembers most of as many distinct keys as it has slots, and forgets once far more came after', () => {
    const recent = new RecentKeys(4096);
    const zips = Array.from({ length: 1000 }, (_, i) => String(10000 + i * 7));
    for (const zip of zips) recent.seenBefore(REM_URL(zip));
    // 1,000 keys in 4,096 slots: about one in nine shares its slot with a later key and is forgotten,
    // and asking for a forgotten key records it again, over another one.
    const remembered = zips.filter((zip) => recent.seenBefore(REM_URL(zip))).length;
    expect(remembered).toBeGreaterThan(750);
    for (let i = 0; i < 100_000; i++) recent.seenBefore(`other-${i}`);
    const still = zips.filter((zip) => recent.seenBefore(REM_URL(zip))).length;
    expect(still).toBeLessThan(50);
  });

  it('rounds its size up to a power of two and holds at least one key', () => {
    const recent = new RecentKeys(0);
    expect(recent.seenBefore('a')).toBe(false);
    expect(recent.seenBefore('a')).toBe(true);
    expect(recent.seenBefore('b')).toBe(false);
    expect(recent.seenBefore('a')).toBe(false);
  });
});
