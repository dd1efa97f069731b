import { hash } from 'node:crypto';
import type { ContentEncoding } from './accept-encoding.ts';

/** The path with its query parameters sorted by name (values of one name keep their order). */
export function canonicalUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const params = new URLSearchParams(url.slice(mark + 1));
  params.sort();
  const query = params.toString();
  return query === '' ? url.slice(0, mark) : `${url.slice(0, mark)}?${query}`;
}

/**
 * The ETag of a data GET. A data response is a function of the code and settings that answer
 * (`answerVersion`), the snapshot, the as-of date and the request (the service answers from an immutable
 * in-memory snapshot), so the tag is derived from those instead of the body: a conditional GET is answered
 * 304 before the handler runs, no response body is ever hashed, and every replica running the same code
 * gives the same answer the same tag. It is strong because equal inputs give byte-equal bodies.
 * `request` names the request: its `canonicalUrl`, or the key its route gave it (see `answerKey`).
 */
export function dataEtag(
  answerVersion: string,
  snapshotId: string,
  asOfDate: string,
  request: string,
): string {
  // One-shot hash: no Hash object per request (it is computed for every GET that misses the cache).
  return `"${hash('sha1', `${answerVersion}\n${snapshotId}\n${asOfDate}\n${request}`, 'base64url')}"`;
}

/**
 * Whether an If-None-Match header names the current ETag (RFC 9110 §13.1.2: weak comparison, a list of
 * tags). "*" is not taken as a match: it is checked before the handler runs, when whether the request
 * has a representation at all (rather than a 404) is not known yet, and a full answer is always correct.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const current = opaque(etag);
  return header.split(',').some((candidate) => opaque(candidate.trim()) === current);
}

/** What a coding adds to the ETag of an answer sent in it: each coding's bytes get their own strong tag. */
const ETAG_SUFFIX: Record<ContentEncoding, string> = { identity: '', br: '-br', gzip: '-gz' };

/** The ETag of an answer tagged `etag` (as it is) when sent in `encoding`. */
export const encodingEtag = (etag: string, encoding: ContentEncoding): string =>
  encoding === 'identity' ? etag : `${etag.slice(0, -1)}${ETAG_SUFFIX[encoding]}"`;

/**
 * The tag to answer 304 with, if If-None-Match names the answer as sent in `encoding` or as it is. The
 * unencoded answer is acceptable to every client, so one who holds it is told it is still current rather
 * than sent it again compressed; and a body too short to compress, sent as it is to every client, can be
 * revalidated whatever the client accepts.
 */
export function notModifiedEtag(
  header: string | undefined,
  etag: string,
  encoding: ContentEncoding,
): string | undefined {
  if (header === undefined) return undefined;
  const encoded = encodingEtag(etag, encoding);
  if (ifNoneMatchMatches(header, encoded)) return encoded;
  return encoded !== etag && ifNoneMatchMatches(header, etag) ? etag : undefined;
}
