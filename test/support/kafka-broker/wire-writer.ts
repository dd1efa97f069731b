/** Builds a Kafka protocol message (big-endian, non-flexible versions) from primitive fields. */
export class WireWriter {
  private readonly parts: Buffer[] = [];

  int8(value: number): this {
    return this.push(1, (b) => b.writeInt8(value));
  }

  int16(value: number): this {
    return this.push(2, (b) => b.writeInt16BE(value));
  }

  int32(value: number): this {
    return this.push(4, (b) => b.writeInt32BE(value));
  }

  int64(value: number): this {
    return this.push(8, (b) => b.writeBigInt64BE(BigInt(value)));
  }

  boolean(value: boolean): this {
    return this.int8(value ? 1 : 0);
  }

  string(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    this.int16(bytes.length);
    this.parts.push(bytes);
    return this;
  }

  nullableString(value: string | null): this {
    return value === null ? this.int16(-1) : this.string(value);
  }

  bytes(value: Buffer): this {
    this.int32(value.length);
    this.parts.push(value);
    return this;
  }

  nullableBytes(value: Buffer | null): this {
    return value === null ? this.int32(-1) : this.bytes(value);
  }

  array<T>(items: readonly T[], writeItem: (writer: this, item: T) => void): this {
    this.int32(items.length);
    for (const item of items) writeItem(this, item);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }

  private push(size: number, write: (buffer: Buffer) => void): this {
    const buffer = Buffer.allocUnsafe(size);
    write(buffer);
    this.parts.push(buffer);
    return this;
  }
}
