import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { STATUS_CODES } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, interceptors, request, type errors, type RetryHandler } from 'undici';
import { writeFileAtomically } from '../../lib/fs/durable-file.ts';
import type { Logger } from '../../lib/log.ts';
import type { SourceReader } from '../source.ts';
import { sha256Hex } from './content-hash.ts';
import { ReadLedger } from './read-ledger.ts';
import { normalizeSourcePath } from './source-path.ts';

export interface HttpReaderOptions {
  /** Where ETags and bodies are kept between runs (e.g. `<LAKE_DIR>/cache/http`); no cache when absent. */
  cacheDir?: string;
  /** Expected SHA-256 of a single-file source (path ""). */
  sha256?: string;
  /** Limit for one request, headers and body together. */
  timeoutMs?: number;
  /** Attempts after the first one, for network errors, timeouts, 5xx and 429. */
  retries?: number;
  /** First backoff; each retry doubles it, with jitter of up to half of it. */
  backoffMs?: number;
  /** Longest backoff, and the longest Retry-After the reader will wait (longer fails the read). */
  maxDelayMs?: number;
  logger?: Pick<Logger, 'warn'>;
  /** Seams for tests: the waiting between attempts and the jitter's randomness. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export class HttpSourceError extends Error {
  constructor(
    readonly url: string,
    detail: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(`GET ${url}: ${detail}`, options);
    this.name = 'HttpSourceError';
  }
}

/** On disk beside the body: the URL (against hash collisions), its ETag and the body's SHA-256. */
interface CacheEntry {
  url: string;
  etag: string;
  sha256: string;
}

interface CachedFile {
  etag: string;
  body: Buffer;
}

/** What the reader retries: 429 and every 5xx (network errors and timeouts are retried too). */
const RETRIED_STATUSES = [429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];

/**
 * Reads an http(s) file (path "" is the URL itself) or the files under a base URL (GET base/path), with
 * undici's retry interceptor. Unchanged files come back as 304 against the cached ETag and are served from
 * the cache; 404 is null.
 */
export function createHttpReader(location: string, options: HttpReaderOptions = {}): SourceReader {
  const settings = {
    cacheDir: options.cacheDir,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 4,
    backoffMs: options.backoffMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 30_000,
  };
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const random = options.random ?? Math.random;
  const base = new URL(location);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new Error(`not an http(s) URL: ${location}`);
  }
  const ledger = new ReadLedger(location, options.sha256);
  const agent = new Agent();

  function urlOf(relative: string): string {
    if (relative === '') return base.href;
    const directory = base.href.endsWith('/') ? base.href : `${base.href}/`;
    return new URL(relative.split('/').map(encodeURIComponent).join('/'), directory).href;
  }

  /**
   * When to try `url` again (the interceptor asks after each failed attempt): after the Retry-After a 429
   * or 5xx asks, if it is not longer than maxDelayMs, or else after an exponential backoff with jitter;
   * never once the retries are spent.
   */
  function retryPolicy(url: string): RetryHandler.RetryCallback {
    let attempts = 0;
    return (error, _context, decide) => {
      attempts++;
      const { statusCode, headers } = error as Partial<errors.RequestRetryError>;
      const reason =
        statusCode === undefined
          ? describe(error)
          : `HTTP ${statusCode} ${STATUS_CODES[statusCode] ?? ''}`.trim();
      if (attempts > settings.retries) {
        return decide(
          new HttpSourceError(url, `failed after ${attempts} attempts: ${reason}`, undefined, {
            cause: error,
          }),
        );
      }
      const retryAfter = headers?.['retry-after'];
      const retryAfterMs = parseRetryAfter(typeof retryAfter === 'string' ? retryAfter : null);
      if (retryAfterMs !== undefined && retryAfterMs > settings.maxDelayMs) {
        return decide(
          new HttpSourceError(
            url,
            `server asked to retry after ${retryAfterMs} ms, longer than the ${settings.maxDelayMs} ms limit`,
          ),
        );
      }
      const exponential = Math.min(settings.maxDelayMs, settings.backoffMs * 2 ** (attempts - 1));
      const waitMs = retryAfterMs ?? Math.round(exponential / 2 + (exponential / 2) * random());
      options.logger?.warn({ url, attempt: attempts, reason, waitMs }, 'retrying GET');
      void sleep(waitMs).then(() => decide(null));
    };
  }

  async function get(url: string): Promise<Buffer | null> {
    const cached = await readCache(url);
    let statusCode: number;
    let headers: Record<string, string | string[] | undefined>;
    let body: Buffer;
    try {
      const dispatcher = agent.compose(
        interceptors.retry({ retry: retryPolicy(url), statusCodes: RETRIED_STATUSES, methods: ['GET'] }),
      );
      const response = await request(url, {
        dispatcher,
        headers: cached ? { 'if-none-match': cached.etag } : {},
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
      });
      ({ statusCode, headers } = response);
      body = Buffer.from(await response.body.arrayBuffer());
    } catch (error) {
      if (error instanceof HttpSourceError) throw error;
      throw new HttpSourceError(url, describe(error), undefined, { cause: error });
    }
    if (statusCode === 404) return null;
    const status = `HTTP ${statusCode} ${STATUS_CODES[statusCode] ?? ''}`.trim();
    if (statusCode === 304) {
      if (!cached) throw new HttpSourceError(url, `${status} to a request that sent no ETag`, 304);
      return cached.body;
    }
    if (statusCode < 200 || statusCode >= 300)
      throw new HttpSourceError(url, `${status} (not retried)`, statusCode);
    const etag = headers.etag;
    if (typeof etag === 'string' && settings.cacheDir)
      await writeCache(url, { url, etag, sha256: sha256Hex(body) }, body);
    return body;
  }

  /** Why an attempt failed, in words: a timeout says how long it waited. */
  function describe(error: unknown): string {
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      return `timed out after ${settings.timeoutMs} ms`;
    if (!(error instanceof Error)) return String(error);
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }

  function cachePaths(url: string): { meta: string; body: string } | undefined {
    if (!settings.cacheDir) return undefined;
    const name = sha256Hex(url);
    return {
      meta: path.join(settings.cacheDir, `${name}.json`),
      body: path.join(settings.cacheDir, `${name}.body`),
    };
  }

  /** The cached ETag and body, only when the body is still the one the ETag was stored with. */
  async function readCache(url: string): Promise<CachedFile | undefined> {
    const paths = cachePaths(url);
    if (!paths) return undefined;
    try {
      const entry = JSON.parse(await readFile(paths.meta, 'utf8')) as CacheEntry;
      const body = await readFile(paths.body);
      return entry.url === url && sha256Hex(body) === entry.sha256 ? { etag: entry.etag, body } : undefined;
    } catch {
      return undefined;
    }
  }

  async function writeCache(url: string, entry: CacheEntry, body: Buffer): Promise<void> {
    const paths = cachePaths(url)!;
    await mkdir(settings.cacheDir!, { recursive: true });
    // Body first, metadata last, each replaced atomically: a crash leaves no ETag pointing at a partial body.
    await writeFileAtomically(paths.body, body);
    await writeFileAtomically(paths.meta, JSON.stringify(entry));
  }

  return {
    location,
    async read(requested: string): Promise<Buffer | null> {
      const relative = normalizeSourcePath(requested, location);
      const body = await get(urlOf(relative));
      if (body !== null) ledger.record(relative, body);
      return body;
    },
    filesRead: () => ledger.list(),
  };
}

/** Retry-After is either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
