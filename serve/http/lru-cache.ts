export interface LruLimits {
  /** Most total bytes (as stated by `set`) the cache holds. */
  maxBytes: number;
  maxEntries: number;
}

/** Whether a value of `bytes` size can be kept at all in a cache of these limits (none in one of no entries). */
export const fitsWithin = (limits: LruLimits, bytes: number): boolean =>
  limits.maxEntries > 0 && bytes <= limits.maxBytes;

interface Slot<V> {
  value: V;
  bytes: number;
}

/**
 * A least-recently-used map bounded by entry count and by total size. A Map iterates in insertion order,
 * so re-inserting on every hit keeps the least recently used entry first, where eviction takes it.
 */
export class LruCache<V> {
  private readonly slots = new Map<string, Slot<V>>();
  private totalBytes = 0;

  constructor(private readonly limits: LruLimits) {}

  get size(): number {
    return this.slots.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** Whether a value of `bytes` size can be kept at all. */
  fits(bytes: number): boolean {
    return fitsWithin(this.limits, bytes);
  }

  /** Stores a value of `bytes` size, evicting the least recently used; a value bigger than the cache is not kept. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (!this.fits(bytes)) return;
    while (
      this.slots.size > 0 &&
      (this.slots.size >= this.limits.maxEntries || this.totalBytes + bytes > this.limits.maxBytes)
    ) {
      this.delete(this.slots.keys().next().value!);
    }
    this.slots.set(key, { value, bytes });
    this.totalBytes += bytes;
  }

  private delete(key: string): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.slots.delete(key);
    this.totalBytes -= slot.bytes;
  }
}
