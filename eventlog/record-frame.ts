import { crc32 } from 'node:zlib';
import type { EventEnvelope } from '../schemas/envelope.ts';

/**
 * One record as the embedded log stores it on disk:
 *
 *   crc32 u32 | bodyLength u32 | keyLength u32 | key (UTF-8) | value (JSON, UTF-8)
 *
 * The CRC covers everything after itself (bodyLength included), so a frame torn by a crash, or a length
 * field garbled by one, fails the check and the tail is cut off on open.
 */
export interface StoredRecord {
  key: string;
  value: EventEnvelope;
}

export const FRAME_PREFIX_BYTES = 8;
const KEY_LENGTH_BYTES = 4;
/** A body holds at least the key length. */
export const MIN_FRAME_BODY_BYTES = KEY_LENGTH_BYTES;
/** Larger bodies can only be a garbled length field: refuse them instead of allocating gigabytes. */
export const MAX_FRAME_BODY_BYTES = 64 * 1024 * 1024;

/** Encodes records as consecutive frames in one buffer; `frameStarts` are their positions in it. */
export function encodeFrames(records: readonly StoredRecord[]): { bytes: Buffer; frameStarts: number[] } {
  const keys = records.map((r) => r.key);
  const values = records.map((r) => JSON.stringify(r.value));
  const frameStarts: number[] = new Array<number>(records.length);
  let size = 0;
  const keyLengths = keys.map((key, i) => {
    const keyLength = Buffer.byteLength(key, 'utf8');
    const bodyLength = KEY_LENGTH_BYTES + keyLength + Buffer.byteLength(values[i]!, 'utf8');
    if (bodyLength > MAX_FRAME_BODY_BYTES) {
      throw new RangeError(
        `record with key "${key}" is ${bodyLength} bytes; the limit is ${MAX_FRAME_BODY_BYTES}`,
      );
    }
    frameStarts[i] = size;
    size += FRAME_PREFIX_BYTES + bodyLength;
    return keyLength;
  });
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < records.length; i++) {
    const start = frameStarts[i]!;
    const end = i + 1 < records.length ? frameStarts[i + 1]! : size;
    const keyStart = start + FRAME_PREFIX_BYTES + KEY_LENGTH_BYTES;
    bytes.writeUInt32BE(end - start - FRAME_PREFIX_BYTES, start + 4);
    bytes.writeUInt32BE(keyLengths[i]!, start + 8);
    bytes.write(keys[i]!, keyStart, 'utf8');
    bytes.write(values[i]!, keyStart + keyLengths[i]!, 'utf8');
    bytes.writeUInt32BE(crc32(bytes.subarray(start + 4, end)), start);
  }
  return { bytes, frameStarts };
}

/** The body length a frame declares, read from its prefix at `position`. */
export function frameBodyLength(buffer: Buffer, position: number): number {
  return buffer.readUInt32BE(position + 4);
}

/** True when the frame at `position` (wholly inside `buffer`) carries the checksum of its bytes. */
export function frameIsIntact(buffer: Buffer, position: number, bodyLength: number): boolean {
  const checked = buffer.subarray(position + 4, position + FRAME_PREFIX_BYTES + bodyLength);
  return buffer.readUInt32BE(position) === crc32(checked);
}

/**
 * Decodes `count` consecutive frames that start at the beginning of `buffer`, handing each key, value and
 * index to `make` so callers build their own record shape without an intermediate object.
 */
export function decodeFrames<T>(
  buffer: Buffer,
  count: number,
  make: (key: string, value: EventEnvelope, index: number) => T,
): T[] {
  const records = new Array<T>(count);
  let position = 0;
  for (let i = 0; i < count; i++) {
    const bodyEnd = position + FRAME_PREFIX_BYTES + buffer.readUInt32BE(position + 4);
    const keyStart = position + FRAME_PREFIX_BYTES + KEY_LENGTH_BYTES;
    const keyEnd = keyStart + buffer.readUInt32BE(position + 8);
    const key = buffer.toString('utf8', keyStart, keyEnd);
    records[i] = make(key, JSON.parse(buffer.toString('utf8', keyEnd, bodyEnd)) as EventEnvelope, i);
    position = bodyEnd;
  }
  return records;
}
