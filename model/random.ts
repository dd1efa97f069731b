/**
 * A small seeded PRNG for the sampler and the synthetic weather year: SplitMix64 (Steele, Lea & Flood,
 * "Fast splittable pseudorandom number generators", OOPSLA 2014), on BigInt-free 32-bit halves so it is
 * fast in V8. The same seed gives the same sequence on every platform.
 */
export class SplitMix64 {
  /**
   * The 64-bit state as its high and low words, in a typed array: a number above 2^30 stored in an object
   * field is a heap number, and the sampler steps ~14,000 times per cluster.
   */
  private readonly state = new Uint32Array(2);

  constructor(seed: number | bigint) {
    const s = BigInt.asUintN(64, BigInt(seed));
    this.state[0] = Number(s >> 32n);
    this.state[1] = Number(s & 0xffffffffn);
  }

  /** The next 32 random bits. */
  nextUint32(): number {
    this.advance();
    return scratch[0]!;
  }

  /** Uniform in [0, 1) with 32 bits of resolution. */
  next(): number {
    // Reads the bits from `scratch` rather than from nextUint32's result: a 32-bit value above 2^30 is
    // returned boxed (a heap number) by a call V8 does not inline, and the sampler draws ~14,000 per cluster.
    this.advance();
    return scratch[0]! / 4294967296;
  }

  /** Steps the state and leaves the next 32 random bits in scratch[0]. */
  private advance(): void {
    // state += 0x9E3779B97F4A7C15
    const state = this.state;
    const lo = (state[1]! + 0x7f4a7c15) >>> 0;
    const carry = lo < state[1]! ? 1 : 0;
    state[0] = state[0]! + 0x9e3779b9 + carry; // a Uint32Array keeps the low 32 bits, as >>> 0 would
    state[1] = lo;
    // z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >>> 27)) * 0x94D049BB133111EB; z ^ (z >>> 31)
    xorShiftRight(state[0]!, lo, 30);
    mul64(scratch[0]!, scratch[1]!, 0xbf58476d, 0x1ce4e5b9);
    xorShiftRight(scratch[0]!, scratch[1]!, 27);
    mul64(scratch[0]!, scratch[1]!, 0x94d049bb, 0x133111eb);
    xorShiftRight(scratch[0]!, scratch[1]!, 31);
  }

  /** Standard normal (Box–Muller; the second variate is discarded to keep the stream simple). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}

// The 64-bit helpers return through these two words (high, low) instead of allocating a pair per call; a
// typed array, because a module variable holding a number above 2^31 allocates a heap number per store.
const scratch = new Uint32Array(2);

function xorShiftRight(hi: number, lo: number, n: number): void {
  const shiftedHi = hi >>> n;
  const shiftedLo = ((lo >>> n) | (hi << (32 - n))) >>> 0;
  scratch[0] = hi ^ shiftedHi;
  scratch[1] = lo ^ shiftedLo;
}

function mul64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  // Low 64 bits of a 64×64 product: aLo×bLo in full, from 16-bit limbs (no partial product reaches 2^32),
  // plus the cross terms, of which only the low 32 bits reach the result (Math.imul keeps exactly those).
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const low = a0 * b0;
  const middle1 = a1 * b0 + (low >>> 16);
  const middle2 = a0 * b1 + (middle1 & 0xffff);
  const carried = a1 * b1 + (middle1 >>> 16) + (middle2 >>> 16);
  scratch[0] = carried + Math.imul(aHi, bLo) + Math.imul(aLo, bHi); // the Uint32Array keeps the low 32 bits
  scratch[1] = (middle2 << 16) | (low & 0xffff);
}

/** A 64-bit FNV-1a hash of a string, for turning a request's text into a seed. */
export function hashSeed(text: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = BigInt.asUintN(64, hash * 0x100000001b3n);
  }
  return hash;
}
