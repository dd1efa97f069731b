/**
 * Which keys were seen recently, remembered approximately in fixed memory and without allocating: one
 * 32-bit hash per slot, a key's slot chosen by its hash. `seenBefore` answers true when the key was
 * recorded before and no other key has taken its slot since, so a key can be forgotten (false negative)
 * and, when two keys' full hashes collide, taken for the other (false positive): use it only where
 * either mistake merely costs a little work, e.g. to admit a response to a cache on its second request.
 */
export class RecentKeys {
  private readonly hashes: Int32Array;
  private readonly mask: number;

  /** `slots` is rounded up to a power of two (4 bytes each). */
  constructor(slots: number) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(1, slots)));
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
  }

  /** Records the key, and says whether it was recorded before (and still held). */
  seenBefore(key: string): boolean {
    // FNV-1a over the UTF-16 code units; `| 1` keeps a recorded hash distinct from an empty slot's 0.
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    // Murmur3's finaliser spreads keys that differ in one character over all the slots.
    hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
    hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
    hash ^= hash >>> 16;
    const mark = hash | 1;
    const slot = hash & this.mask;
    if (this.hashes[slot] === mark) return true;
    this.hashes[slot] = mark;
    return false;
  }
}
