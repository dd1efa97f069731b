import { z } from 'zod';

/** Where a walk through the incentives list stands: after which catalog position, in which snapshot. */
export interface PageToken {
  snapshot: string;
  after: number;
}

const pageTokenSchema = z.strictObject({ snapshot: z.string().min(1), after: z.number().int().min(0) });
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The token a client sends back for the next page: opaque to it (base64url of JSON), readable to us. */
export const encodePageToken = (token: PageToken): string =>
  Buffer.from(JSON.stringify(token)).toString('base64url');

/** The position a token stands for, or null for text this service never gave as a token. */
export function decodePageToken(text: string): PageToken | null {
  if (!BASE64URL.test(text)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = pageTokenSchema.safeParse(decoded);
  return parsed.success ? parsed.data : null;
}
