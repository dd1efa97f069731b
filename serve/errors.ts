import { STATUS_CODES } from 'node:http';
import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import type { Language } from '../schemas/incentives/enums.ts';
import { errorMessages, type JsonSyntaxProblem } from './error-messages.ts';

/** The one body every error response carries; `error` is the HTTP reason phrase of `statusCode`. */
export const errorBodySchema = z
  .object({
    statusCode: z.number().int().min(400).max(599),
    error: z.string().describe('The HTTP reason phrase of statusCode'),
    message: z.string().describe('What went wrong, for a person to read'),
    field: z
      .string()
      .optional()
      .describe('The request field at fault, as a dotted path (e.g. "zip" or "household.income")'),
  })
  .meta({ id: 'Error', description: 'Body of every error response (4xx and 5xx)' });

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An error response as a route schema documents it: the Error shape, with a body the service really sends. */
export const documentedError = (description: string, example: HttpError) => ({
  description,
  content: { 'application/json': { schema: errorBodySchema.meta({ example: example.body() }) } },
});
export type DocumentedError = ReturnType<typeof documentedError>;

/**
 * Documents on a route the error responses something around it (a plugin of its scope) may answer it
 * with, unless the route documents that status itself or is hidden from the spec.
 */
export function documentErrorResponses(
  route: RouteOptions,
  documented: Readonly<Record<number, DocumentedError>>,
): void {
  const schema = (route.schema ??= {});
  if ((schema as { hide?: boolean }).hide) return;
  const response = (schema.response ??= {}) as Record<string, unknown>;
  for (const [status, error] of Object.entries(documented)) response[status] ??= error;
}

/** Stable, machine-readable error codes: logged with every error, so operators can count them by cause. */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'RATE_LIMITED'
  | 'RANGE_NOT_SATISFIABLE'
  | 'SNAPSHOT_UNAVAILABLE'
  | 'MODULE_NOT_READY'
  | 'OVERLOADED'
  | 'GEOCODER_UNAVAILABLE'
  | 'INTERNAL';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** Response headers the status requires (Allow for 405, WWW-Authenticate for 401). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  body(): ErrorBody {
    return {
      statusCode: this.statusCode,
      error: STATUS_CODES[this.statusCode] ?? 'Error',
      message: this.message,
      ...(this.field === undefined ? {} : { field: this.field }),
    };
  }
}

/** Every error the service answers with is made here, so codes and messages stay consistent. */
export const errors = {
  /** A request field that fails its schema; `detail` is what is wrong with it. */
  validation: (field: string, detail: string) =>
    new HttpError(400, 'VALIDATION_FAILED', `${field}: ${detail}`, field),
  /** A request field that fails a rule of its route; the message already names the field. */
  invalid: (message: string, field: string) => new HttpError(400, 'VALIDATION_FAILED', message, field),
  /** A valid request the data cannot answer as asked (an unknown utility, fuels too rare to estimate). */
  badRequest: (message: string, field?: string) => new HttpError(400, 'BAD_REQUEST', message, field),
  missingKey: (language: Language) =>
    new HttpError(401, 'UNAUTHORIZED', errorMessages[language].missingKey, undefined, {
      'www-authenticate': 'Bearer',
    }),
  invalidKey: (language: Language) =>
    new HttpError(401, 'UNAUTHORIZED', errorMessages[language].invalidKey, undefined, {
      'www-authenticate': 'Bearer error="invalid_token"',
    }),
  /** A body with no Content-Type, or one no parser takes (a form, XML). */
  unsupportedMediaType: (language: Language) =>
    new HttpError(415, 'BAD_REQUEST', errorMessages[language].unsupportedMediaType, 'content-type'),
  /** A JSON body that is empty, does not parse (`problem` says where and why), or holds a key refused for safety. */
  bodyNotJson: (language: Language, problem: JsonSyntaxProblem | 'emptyBody' | 'forbiddenKey') => {
    const text = errorMessages[language];
    const message = typeof problem === 'string' ? text[problem] : text.bodyNotJson(problem);
    return new HttpError(400, 'BAD_REQUEST', message, 'body');
  },
  forbidden: (message: string, field?: string) => new HttpError(403, 'FORBIDDEN', message, field),
  notFound: (method: string, path: string) =>
    new HttpError(404, 'NOT_FOUND', `Route ${method} ${path} not found`),
  /** What a request field names (a ZIP, an address, a county, a state) is not in the data being served. */
  notInData: (message: string, field: string) => new HttpError(404, 'NOT_FOUND', message, field),
  methodNotAllowed: (method: string, path: string, allowed: string[]) =>
    new HttpError(
      405,
      'METHOD_NOT_ALLOWED',
      `Method ${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
      undefined,
      { allow: allowed.join(', ') },
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new HttpError(
      429,
      'RATE_LIMITED',
      `Rate limit exceeded for this API key; retry in ${retryAfterSeconds} s`,
      undefined,
      { 'retry-after': String(retryAfterSeconds) },
    ),
  /** A Range header whose every range starts past the end of the file (RFC 9110 §15.5.17). */
  rangeNotSatisfiable: (size: number) =>
    new HttpError(
      416,
      'RANGE_NOT_SATISFIABLE',
      `The requested range starts past the end of the file (${size} bytes)`,
      'range',
      { 'content-range': `bytes */${size}` },
    ),
  snapshotUnavailable: () =>
    new HttpError(
      503,
      'SNAPSHOT_UNAVAILABLE',
      'No data snapshot is published yet; retry shortly',
      undefined,
      {
        'retry-after': '5',
      },
    ),
  /**
   * A snapshot is served, but without the data family a module answers from (e.g. the REM tables): the
   * pipeline has not built it yet, so a client should come back later (when a running precompute should be
   * done, see serve/http/not-ready.ts), not shortly.
   */
  moduleNotReady: (message: string, retryAfterSeconds = 60) =>
    new HttpError(503, 'MODULE_NOT_READY', message, undefined, { 'retry-after': String(retryAfterSeconds) }),
  /** Every worker is busy and the queue is full: the request is fine and worth retrying soon. */
  overloaded: (message: string, retryAfterSeconds: number) =>
    new HttpError(503, 'OVERLOADED', message, undefined, { 'retry-after': String(retryAfterSeconds) }),
  internal: () => new HttpError(500, 'INTERNAL', 'Internal server error'),
  /**
   * The address service (the Census geocoder) timed out, failed or answered nonsense. The address may be
   * fine, so this is never a 404; it is a 503 naming the address, with a hint to retry, under a code of its
   * own so an outage upstream is counted apart from the service's own failures.
   */
  geocoderUnavailable: (message: string) =>
    new HttpError(503, 'GEOCODER_UNAVAILABLE', message, 'address', { 'retry-after': '30' }),
};

/** Whether a Fastify client error is about the body. */
const isBodyError = (err: unknown, code: unknown): boolean =>
  err instanceof SyntaxError || (typeof code === 'string' && code.startsWith('FST_ERR_CTP_'));

/**
 * 5xx errors the service answers by design and a client retries (data still being prepared on a fresh lake,
 * a full queue): the request's log line tells them, not an error line of their own, so a warming server's
 * terminal does not look like a crash.
 */
const COME_BACK_LATER: ReadonlySet<ErrorCode> = new Set([
  'SNAPSHOT_UNAVAILABLE',
  'MODULE_NOT_READY',
  'OVERLOADED',
]);

/**
 * Maps anything thrown while answering a request to the HttpError sent back, worded in `language` where the
 * service words it. `expected` is false for failures the client did not cause and the service did not plan
 * (a 500, an address service down): those are logged with details, and a 500 is answered generically.
 */
export function toHttpError(err: unknown, language: Language): { error: HttpError; expected: boolean } {
  // Request validation (serve/http/request-validation.ts) throws HttpErrors too, so it lands here.
  if (err instanceof HttpError) {
    return { error: err, expected: err.statusCode < 500 || COME_BACK_LATER.has(err.code) };
  }
  // A JSON body that does not parse is worded by serve/http/json-body-parser.ts (it has the body); a body of
  // no type Fastify reads, here. Fastify's other client errors (a body too large, a malformed URL) carry a
  // 4xx status and a message written for clients; anything else may hold internals and is not echoed.
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { error: errors.unsupportedMediaType(language), expected: true };
  }
  if (
    typeof status === 'number' &&
    status >= 400 &&
    status < 500 &&
    (err instanceof SyntaxError || (typeof code === 'string' && code.startsWith('FST_')))
  ) {
    return {
      error: new HttpError(
        status,
        'BAD_REQUEST',
        (err as Error).message,
        isBodyError(err, code) ? 'body' : undefined,
      ),
      expected: true,
    };
  }
  return { error: errors.internal(), expected: false };
}
