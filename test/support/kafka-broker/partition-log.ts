/** One stored RecordBatch (v2): its bytes as the producer sent them, with baseOffset set by the broker. */
interface StoredBatch {
  baseOffset: number;
  lastOffset: number;
  bytes: Buffer;
}

const BATCH_LENGTH_AT = 8;
const MAGIC_AT = 16;
const LAST_OFFSET_DELTA_AT = 23;
/** baseOffset (8) + batchLength (4): the bytes before those batchLength counts. */
const LOG_OVERHEAD = 12;
const RECORDS_COUNT_END = 61;

export class CorruptRecordSetError extends Error {}

/**
 * A partition of the test broker. Batches are kept opaque: the broker only reads the header fields it needs
 * (length, magic, last offset delta) and rewrites baseOffset, which the batch CRC does not cover.
 */
export class PartitionLog {
  private readonly batches: StoredBatch[] = [];
  private nextOffset = 0;

  get highWatermark(): number {
    return this.nextOffset;
  }

  /** Appends every batch in a produce request's record set; returns the first offset given out. */
  append(recordSet: Buffer): number {
    const parsed = splitBatches(recordSet);
    const baseOffset = this.nextOffset;
    for (const bytes of parsed) {
      const copy = Buffer.from(bytes);
      copy.writeBigInt64BE(BigInt(this.nextOffset), 0);
      const lastOffset = this.nextOffset + copy.readInt32BE(LAST_OFFSET_DELTA_AT);
      this.batches.push({ baseOffset: this.nextOffset, lastOffset, bytes: copy });
      this.nextOffset = lastOffset + 1;
    }
    return baseOffset;
  }

  /**
   * Whole batches from the one holding `fetchOffset`, up to `maxBytes` (but at least one batch, as Kafka
   * does, so a large batch cannot stall a consumer). The client drops records below `fetchOffset`.
   */
  read(fetchOffset: number, maxBytes: number): Buffer {
    const parts: Buffer[] = [];
    let size = 0;
    for (let i = this.firstBatchEndingAtOrAfter(fetchOffset); i < this.batches.length; i++) {
      const { bytes } = this.batches[i]!;
      if (parts.length > 0 && size + bytes.length > maxBytes) break;
      parts.push(bytes);
      size += bytes.length;
    }
    return Buffer.concat(parts);
  }

  private firstBatchEndingAtOrAfter(offset: number): number {
    let low = 0;
    let high = this.batches.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.batches[middle]!.lastOffset < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

function splitBatches(recordSet: Buffer): Buffer[] {
  const batches: Buffer[] = [];
  let position = 0;
  while (position < recordSet.length) {
    if (position + RECORDS_COUNT_END > recordSet.length)
      throw new CorruptRecordSetError('truncated batch header');
    const size = LOG_OVERHEAD + recordSet.readInt32BE(position + BATCH_LENGTH_AT);
    if (recordSet.readInt8(position + MAGIC_AT) !== 2) {
      throw new CorruptRecordSetError('only RecordBatch v2 (magic 2) is supported');
    }
    if (position + size > recordSet.length) throw new CorruptRecordSetError('truncated batch');
    batches.push(recordSet.subarray(position, position + size));
    position += size;
  }
  return batches;
}
