import { describe, expect, it } from 'vitest';
import { SplitMix64, hashSeed } from '../../model/random.ts';

/** SplitMix64 written directly with 64-bit BigInt arithmetic, as in the published algorithm. */
function referenceHigh32(seed: bigint, count: number): number[] {
  const out: number[] = [];
  let state = seed;
  for (let i = 0; i < count; i++) {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    z ^= z >> 31n;
    out.push(Number(z >> 32n));
  }
  return out;
}

describe('SplitMix64', () => {
  it('matches the 64-bit reference algorithm bit for bit', () => {
    for (const seed of [0n, 1234567n, 0xffffffffffffffffn, 0x5eed2020n]) {
      const rng = new SplitMix64(seed);
      const ours = Array.from({ length: 50 }, () => rng.nextUint32());
      expect(ours).toEqual(referenceHigh32(seed, 50));
    }
  });

  it('matches the reference for seeds spread over the whole 64-bit range', () => {
    // Seeds from the reference generator itself, so every bit pattern of both words is exercised.
    const seeds = referenceHigh32(0x5eedn, 400).map(
      (high, i, all) => (BigInt(high) << 32n) | BigInt(all[(i + 1) % all.length]!),
    );
    for (const seed of seeds) {
      const rng = new SplitMix64(seed);
      expect(Array.from({ length: 8 }, () => rng.nextUint32())).toEqual(referenceHigh32(seed, 8));
    }
  });

  it('gives the same stream for the same seed and a different one for another seed', () => {
    const a = new SplitMix64(42);
    const b = new SplitMix64(42);
    const c = new SplitMix64(43);
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(first);
  });

  it('draws uniforms in [0, 1) and standard normals with mean ≈ 0 and sd ≈ 1', () => {
    const rng = new SplitMix64(7);
    const uniforms = Array.from({ length: 20_000 }, () => rng.next());
    expect(Math.min(...uniforms)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...uniforms)).toBeLessThan(1);
    const normals = Array.from({ length: 20_000 }, () => rng.normal());
    const mean = normals.reduce((s, x) => s + x, 0) / normals.length;
    const sd = Math.sqrt(normals.reduce((s, x) => s + (x - mean) ** 2, 0) / normals.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(sd).toBeGreaterThan(0.97);
    expect(sd).toBeLessThan(1.03);
  });
});

describe('hashSeed', () => {
  it('is the 64-bit FNV-1a hash', () => {
    expect(hashSeed('')).toBe(0xcbf29ce484222325n);
    expect(hashSeed('a')).toBe(0xaf63dc4c8601ec8cn);
    expect(hashSeed('foobar')).toBe(0x85944171f73967e8n);
  });
});
