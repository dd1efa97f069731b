import { createHash } from 'node:crypto';

/**
 * A strong ETag derived from the exact bytes sent: equal bodies share a tag whichever snapshot produced
 * them, and a tag can never vouch for a body it was not computed from. SHA-1 is used for speed, not
 * secrecy; 160 bits make an accidental collision irrelevant.
 */
export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Whether an If-None-Match header matches the current ETag (RFC 9110 §13.1.2: weak comparison, a list of
 * tags or "*").
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const current = opaque(etag);
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || opaque(tag) === current;
  });
}
