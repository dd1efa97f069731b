import { describe, expect, it } from 'vitest';
import { murmur2, partitionForKey } from '../../eventlog/partition-for-key.ts';

describe('murmur2', () => {
  // Expected values from Apache Kafka's UtilsTest.testMurmur2 (clients/src/test/java/.../UtilsTest.java).
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('hashes %j like the Java client', (key, expected) => {
    expect(murmur2(key)).toBe(expected);
  });
});

describe('partitionForKey', () => {
  it('takes the positive part of the hash modulo the partition count', () => {
    // murmur2('21') = -973932308; & 0x7fffffff = 1173551340; % 4 = 0, % 7 = 3.
    expect(partitionForKey('21', 4)).toBe(0);
    expect(partitionForKey('21', 7)).toBe(3);
  });

  it('puts every key on partition 0 of a one-partition topic', () => {
    expect(['a', 'program-17', 'tariff:Con Ed/EL1'].map((key) => partitionForKey(key, 1))).toEqual([0, 0, 0]);
  });

  it('hashes the UTF-8 bytes of non-ASCII keys', () => {
    // Same value as kafkajs's Java-compatible partitioner hash for this key.
    expect(murmur2('héllo wörld ✓')).toBe(-1290846696);
  });
});
