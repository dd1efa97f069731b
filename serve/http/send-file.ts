import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../errors.ts';
import { answerFileRequest, type FileValidators } from './byte-range.ts';

/** An immutable file the server may send, with its validators. */
export interface ServedFile extends FileValidators {
  path: string;
  /** Its media type. */
  type: string;
  /** The name a client saving it should give it. */
  downloadName: string;
}

/** Clients may keep the bytes, but must check the ETag before using them again (a new snapshot may be out). */
const FILE_CACHE_CONTROL = 'private, no-cache';
/** A URL that names its snapshot never serves other bytes: keep them a year without asking. */
const PINNED_CACHE_CONTROL = 'private, max-age=31536000, immutable';

/**
 * Answers a GET or HEAD with a file's bytes, a range of them (206), 304 or 416 (see `answerFileRequest`).
 * The file is opened now and streamed from the open descriptor, so what a download gets is the file as it
 * was when it started, whatever happens to its path meanwhile.
 */
export function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: ServedFile,
  { pinned = false }: { pinned?: boolean } = {},
): FastifyReply {
  const answer = answerFileRequest(request.headers, file);
  if (answer.status === 416) throw errors.rangeNotSatisfiable(file.size);
  void reply
    .header('etag', file.etag)
    .header('last-modified', file.lastModified)
    .header('accept-ranges', 'bytes')
    .header('cache-control', pinned ? PINNED_CACHE_CONTROL : FILE_CACHE_CONTROL);
  if (answer.status === 304) return reply.code(304).send();
  const { start, end } = answer.status === 206 ? answer : { start: 0, end: file.size - 1 };
  if (answer.status === 206)
    void reply.code(206).header('content-range', `bytes ${start}-${end}/${file.size}`);
  void reply
    .type(file.type)
    .header('content-disposition', `attachment; filename="${file.downloadName}"`)
    .header('content-length', end - start + 1);
  if (request.method === 'HEAD' || end < start) return reply.send();
  return reply.send(createReadStream(file.path, { start, end }));
}
