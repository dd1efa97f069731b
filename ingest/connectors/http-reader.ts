import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
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

/** The outcome of one attempt: a final answer, or a reason to try again (with the wait the server asked for). */
type Attempt =
  | { done: true; body: Buffer | null }
  | { done: false; reason: string; retryAfterMs?: number; cause?: unknown };

/**
 * Reads an http(s) file (path "" is the URL itself) or the files under a base URL (GET base/path).
 * Unchanged files come back as 304 against the cached ETag and are served from the cache; 404 is null.
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

  function urlOf(relative: string): string {
    if (relative === '') return base.href;
    const directory = base.href.endsWith('/') ? base.href : `${base.href}/`;
    return new URL(relative.split('/').map(encodeURIComponent).join('/'), directory).href;
  }

  async function attempt(url: string, cached: CachedFile | undefined): Promise<Attempt> {
    let response: Response;
    let body: Buffer;
    try {
      response = await fetch(url, {
        headers: cached ? { 'if-none-match': cached.etag } : {},
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      return {
        done: false,
        reason: timedOut ? `timed out after ${settings.timeoutMs} ms` : describe(error),
        cause: error,
      };
    }
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    if (response.status === 404) return { done: true, body: null };
    if (response.status === 304) {
      if (!cached) throw new HttpSourceError(url, `${status} to a request that sent no ETag`, 304);
      return { done: true, body: cached.body };
    }
    if (response.status === 429 || response.status >= 500) {
      return {
        done: false,
        reason: status,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      };
    }
    if (!response.ok) throw new HttpSourceError(url, `${status} (not retried)`, response.status);
    const etag = response.headers.get('etag');
    if (etag && settings.cacheDir) await writeCache(url, { url, etag, sha256: sha256Hex(body) }, body);
    return { done: true, body };
  }

  async function fetchWithRetries(url: string): Promise<Buffer | null> {
    const cached = await readCache(url);
    for (let attemptNo = 0; ; attemptNo++) {
      const outcome = await attempt(url, cached);
      if (outcome.done) return outcome.body;
      if (attemptNo >= settings.retries) {
        throw new HttpSourceError(
          url,
          `failed after ${attemptNo + 1} attempts: ${outcome.reason}`,
          undefined,
          {
            cause: outcome.cause,
          },
        );
      }
      const wait = waitBeforeRetry(url, attemptNo, outcome.retryAfterMs);
      options.logger?.warn(
        { url, attempt: attemptNo + 1, reason: outcome.reason, waitMs: wait },
        'retrying GET',
      );
      await sleep(wait);
    }
  }

  function waitBeforeRetry(url: string, attemptNo: number, retryAfterMs: number | undefined): number {
    if (retryAfterMs !== undefined) {
      if (retryAfterMs > settings.maxDelayMs) {
        throw new HttpSourceError(
          url,
          `server asked to retry after ${retryAfterMs} ms, longer than the ${settings.maxDelayMs} ms limit`,
        );
      }
      return retryAfterMs;
    }
    const exponential = Math.min(settings.maxDelayMs, settings.backoffMs * 2 ** attemptNo);
    return Math.round(exponential / 2 + (exponential / 2) * random());
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
      const body = await fetchWithRetries(urlOf(relative));
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

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
