/**
 * Kafka's murmur2 (the Java client's `Utils.murmur2`), over the key's UTF-8 bytes. Using the same hash in
 * both back ends means a key lands on the same partition whether the log is embedded or Kafka.
 */
export function murmur2(key: string): number {
  const data = Buffer.from(key, 'utf8');
  const m = 0x5bd1e995;
  const length = data.length;
  let h = 0x9747b28c ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const rest = length & 3;
  if (rest === 3) h ^= data[whole + 2]! << 16;
  if (rest >= 2) h ^= data[whole + 1]! << 8;
  if (rest >= 1) {
    h ^= data[whole]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's default partitioner for keyed records: the positive part of murmur2, modulo the partition count. */
export function partitionForKey(key: string, partitionCount: number): number {
  return (murmur2(key) & 0x7fffffff) % partitionCount;
}
