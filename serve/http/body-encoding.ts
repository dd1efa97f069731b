import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { ContentEncoding } from './accept-encoding.ts';

/** A coding that changes the bytes. */
export type Compression = Exclude<ContentEncoding, 'identity'>;

/**
 * Compresses a body in a coding (tests count the calls). On the thread pool: an answer computed for one
 * request and compressed on the event loop held every other request for 0.1–0.4 ms (Texas health, 74 KB).
 */
export type Compressor = (body: Uint8Array, encoding: Compression) => Promise<Buffer>;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Bodies shorter than this go as they are: compressing saves a few hundred bytes at most, less than the
 * CPU and the Content-Encoding header are worth.
 */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Brotli at quality 4 and gzip at zlib's default level (6): on a 27 KB calculator answer each makes it
 * about a ninth of its size, in a fraction of a millisecond. Brotli's higher qualities save a few percent
 * more for several times the CPU, which an uncached answer pays on every request.
 */
const BROTLI_QUALITY = 4;

export const compressBody: Compressor = (body, encoding) =>
  encoding === 'br'
    ? brotliAsync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body);

/** The coding a body of `bytes` is sent in to a client whose best acceptable coding is `accepted`. */
export const encodingFor = (accepted: ContentEncoding, bytes: number): ContentEncoding =>
  bytes < MIN_COMPRESSED_BYTES ? 'identity' : accepted;
