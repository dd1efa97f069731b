import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/*
 * Why a plugin: pages of other sites (embedded incentive calculators) call the API from their visitors'
 * browsers, and a browser lets a page read a cross-origin answer only when the server says its origin may.
 * Registered on the root before the API scope, so its hook runs before the auth plugin's: a preflight
 * carries no Authorization header (the browser strips it) and must be answered without a key.
 */

export interface CorsOptions {
  /** CORS_ORIGINS: the origins allowed, exactly as browsers send them, or `*` for any. */
  origins: readonly string[];
}

/** What a browser page may send and read; the same for every allowed origin. */
const CORS_POLICY = {
  methods: ['GET', 'HEAD', 'POST'],
  // Authorization carries the key; the rest are what conditional and range reads of the lake send.
  allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'If-Range', 'Range'],
  exposedHeaders: [
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'Retry-After',
    'ETag',
    'X-Snapshot-Id',
    'Content-Range',
    'Accept-Ranges',
  ],
  // Keys travel in the Authorization header, never in cookies: no credentialed requests.
  credentials: false,
  // A browser may reuse a preflight's answer for 10 minutes (Chromium caps it at 2 hours).
  maxAge: 600,
} satisfies FastifyCorsOptions;

/**
 * The CORS options of one request: an allowed origin gets the policy (and a preflight from it a 204); any
 * other request gets no CORS header at all, and an OPTIONS that is not a preflight from an allowed origin
 * falls through to the usual 404/405, so every refusal still comes from serve/errors.ts.
 */
function corsFor(allowed: ReadonlySet<string>) {
  const any = allowed.has('*');
  return (request: FastifyRequest): FastifyCorsOptions => {
    const origin = request.headers.origin;
    if (origin === undefined || !(any || allowed.has(origin))) return { origin: false };
    const preflight =
      request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    return { ...CORS_POLICY, origin: any ? '*' : origin, preflight, strictPreflight: false };
  };
}

export const corsPlugin = fp<CorsOptions>(
  async (app, { origins }) => {
    // No origin configured: no CORS headers and no preflight route, so an OPTIONS stays a 405.
    if (origins.length === 0) return;
    const optionsOf = corsFor(new Set(origins));
    await app.register(fastifyCors, {
      delegator: (request, callback) => callback(null, optionsOf(request)),
    });
  },
  { name: 'electrify-cors', fastify: '5.x' },
);
