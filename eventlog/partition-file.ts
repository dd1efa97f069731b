import { open, type FileHandle } from 'node:fs/promises';
import type { EventEnvelope } from '../schemas/envelope.ts';
import {
  decodeFrames,
  encodeFrames,
  frameBodyLength,
  frameIsIntact,
  FRAME_PREFIX_BYTES,
  MAX_FRAME_BODY_BYTES,
  MIN_FRAME_BODY_BYTES,
  type StoredRecord,
} from './record-frame.ts';

const SCAN_CHUNK_BYTES = 8 * 1024 * 1024;

/** What opening a partition file found. */
export interface PartitionRecovery {
  /** Bytes cut off the tail because they did not form intact frames (a write torn by a crash). */
  truncatedBytes: number;
}

/**
 * One partition of the embedded log: an append-only file of checksummed frames. The offset of a record
 * is its position in the file's sequence of frames; an in-memory index maps offsets to byte positions.
 */
export class PartitionFile {
  private constructor(
    private readonly handle: FileHandle,
    /** Byte position of each record's frame, indexed by offset. */
    private readonly frameStarts: number[],
    private size: number,
  ) {}

  /**
   * Opens (creating it if needed) and checks the file. The first frame that is incomplete or fails its
   * checksum, and everything after it, is cut off: after a crash that is a write never acknowledged.
   */
  static async open(file: string): Promise<{ partition: PartitionFile; recovery: PartitionRecovery }> {
    const handle = await open(file, 'a+');
    try {
      const fileSize = (await handle.stat()).size;
      const { frameStarts, validEnd } = await scanFrames(handle, fileSize);
      if (validEnd < fileSize) {
        await handle.truncate(validEnd);
        await handle.sync();
      }
      return {
        partition: new PartitionFile(handle, frameStarts, validEnd),
        recovery: { truncatedBytes: fileSize - validEnd },
      };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The offset the next appended record gets (= the number of records). */
  get endOffset(): number {
    return this.frameStarts.length;
  }

  /** Appends records and fsyncs; they are in the index (readable) only once they are durable. */
  async append(records: StoredRecord[]): Promise<void> {
    const { bytes, frameStarts } = encodeFrames(records);
    try {
      // A+ mode appends at the end whatever the position; the size we track is that end.
      await writeFully(this.handle, bytes);
      await this.handle.datasync();
    } catch (error) {
      // Leave no half-written tail behind for the next append to follow.
      await this.handle.truncate(this.size).catch(() => undefined);
      throw error;
    }
    for (const start of frameStarts) this.frameStarts.push(this.size + start);
    this.size += bytes.length;
  }

  /**
   * Reads the records with offsets in [from, to), at most `maxRecords` and (beyond the first) about
   * `maxBytes` of frames, in one read; `make` shapes each record from its key, value and offset.
   */
  async read<T>(
    from: number,
    to: number,
    limits: { maxRecords: number; maxBytes: number },
    make: (key: string, value: EventEnvelope, offset: number) => T,
  ): Promise<T[]> {
    const { maxRecords, maxBytes } = limits;
    const end = Math.min(to, this.endOffset, from + maxRecords);
    if (from >= end) return [];
    const start = this.frameStarts[from]!;
    let last = from + 1;
    while (last < end && this.positionOf(last + 1) - start <= maxBytes) last++;
    const length = this.positionOf(last) - start;
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await this.handle.read(buffer, 0, length, start);
    if (bytesRead !== length)
      throw new Error(`partition file shrank while reading (${bytesRead} of ${length} bytes)`);
    return decodeFrames(buffer, last - from, (key, value, index) => make(key, value, from + index));
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  private positionOf(offset: number): number {
    return offset < this.frameStarts.length ? this.frameStarts[offset]! : this.size;
  }
}

async function writeFully(handle: FileHandle, bytes: Buffer): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const result = await handle.write(bytes, written, bytes.length - written);
    written += result.bytesWritten;
  }
}

/** Walks the frames from the start of the file and returns where each intact one starts. */
async function scanFrames(
  handle: FileHandle,
  fileSize: number,
): Promise<{ frameStarts: number[]; validEnd: number }> {
  const frameStarts: number[] = [];
  let chunk = Buffer.alloc(0);
  let chunkStart = 0;
  let position = 0;
  const holds = (from: number, bytes: number) =>
    from >= chunkStart && from + bytes <= chunkStart + chunk.length;
  /** Loads a chunk starting at `from` that holds at least `bytes`; false if the file ends first. */
  const load = async (from: number, bytes: number): Promise<boolean> => {
    if (from + bytes > fileSize) return false;
    const length = Math.min(Math.max(SCAN_CHUNK_BYTES, bytes), fileSize - from);
    chunk = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(chunk, 0, length, from);
    chunk = chunk.subarray(0, bytesRead);
    chunkStart = from;
    return bytesRead >= bytes;
  };
  while (position < fileSize) {
    if (!holds(position, FRAME_PREFIX_BYTES) && !(await load(position, FRAME_PREFIX_BYTES))) break;
    const bodyLength = frameBodyLength(chunk, position - chunkStart);
    if (bodyLength < MIN_FRAME_BODY_BYTES || bodyLength > MAX_FRAME_BODY_BYTES) break;
    const frameLength = FRAME_PREFIX_BYTES + bodyLength;
    if (!holds(position, frameLength) && !(await load(position, frameLength))) break;
    if (!frameIsIntact(chunk, position - chunkStart, bodyLength)) break;
    frameStarts.push(position);
    position += frameLength;
  }
  return { frameStarts, validEnd: position };
}
