import parseRange from 'range-parser';
import { ifNoneMatchMatches } from './etag.ts';

/** What a client's conditional and range headers are checked against: an immutable file's validators. */
export interface FileValidators {
  size: number;
  /** A strong entity tag, quoted. */
  etag: string;
  /** An HTTP-date. */
  lastModified: string;
}

export interface FileRequestHeaders {
  range?: string;
  'if-range'?: string;
  'if-none-match'?: string;
}

/** How to answer a GET or HEAD of a file; `end` is inclusive, as in Content-Range. */
export type FileAnswer =
  { status: 200 } | { status: 206; start: number; end: number } | { status: 304 } | { status: 416 };

/**
 * How a GET or HEAD of a file is answered (RFC 9110 §13.2.2 and §14): a matching If-None-Match gets 304;
 * a single satisfiable byte range gets 206 with that slice, unless If-Range names other bytes than these,
 * in which case the whole file (200) is the answer; byte ranges no byte satisfies (past the end,
 * reversed, unreadable positions) get 416, as range-parser reads them. A Range without a unit or in
 * another unit, or of several disjoint ranges, is ignored (200, the whole file): a server may always
 * answer a range request in full, and no client this serves asks for several ranges at once.
 */
export function answerFileRequest(headers: FileRequestHeaders, file: FileValidators): FileAnswer {
  if (ifNoneMatchMatches(headers['if-none-match'], file.etag)) return { status: 304 };
  const range = headers.range;
  if (range === undefined || !ifRangeHolds(headers['if-range'], file)) return { status: 200 };
  const ranges = parseRange(file.size, range, { combine: true });
  if (ranges === -1) return { status: 416 };
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return { status: 200 };
  return { status: 206, start: ranges[0]!.start, end: ranges[0]!.end };
}

/**
 * Whether the bytes If-Range says the client holds are this file's: an entity tag compared strongly (a
 * weak tag never matches, RFC 9110 §13.1.5), or a date equal to Last-Modified. Absent: nothing to check.
 */
function ifRangeHolds(ifRange: string | undefined, file: FileValidators): boolean {
  if (ifRange === undefined) return true;
  const validator = ifRange.trim();
  if (validator.startsWith('"') || validator.startsWith('W/')) return validator === file.etag;
  const date = Date.parse(validator);
  return !Number.isNaN(date) && date === Date.parse(file.lastModified);
}
