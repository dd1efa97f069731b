/** A seeded source of uniform numbers in [0, 1); training, splits and sampling all draw from one so runs repeat. */
export interface Random {
  next(): number;
}

/**
 * Mulberry32 (Tommy Ettinger's 32-bit generator, public domain): tiny, fast and good enough for
 * shuffling minibatches and initialising weights; not for anything cryptographic.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return {
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** A standard normal draw (Box–Muller; the second value of the pair is dropped for simplicity). */
export function normal(random: Random): number {
  const u = 1 - random.next(); // in (0, 1], so log(u) is finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

/** Fisher–Yates shuffle in place. */
export function shuffle(values: Int32Array | number[], random: Random): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    const swap = values[i]!;
    values[i] = values[j]!;
    values[j] = swap;
  }
}
