import type { SourceDeclaration, SourceReader } from '../source.ts';
import { createFileReader } from './file-reader.ts';
import { createHttpReader, type HttpReaderOptions } from './http-reader.ts';

/** Options for the HTTP connector other than the declaration's own checksum. */
export type ReaderOptions = Omit<HttpReaderOptions, 'sha256'>;

export function isHttpLocation(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** The connector for a source's location: http:// and https:// go over HTTP, anything else is a local path. */
export function openReader(source: SourceDeclaration, options: ReaderOptions = {}): SourceReader {
  const checksum = source.sha256 === undefined ? {} : { sha256: source.sha256 };
  return isHttpLocation(source.location)
    ? createHttpReader(source.location, { ...options, ...checksum })
    : createFileReader(source.location, checksum);
}
