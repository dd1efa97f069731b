import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { sha256Hex } from '../../../ingest/connectors/content-hash.ts';
import {
  createHttpReader,
  HttpSourceError,
  parseRetryAfter,
} from '../../../ingest/connectors/http-reader.ts';
import { ChecksumError } from '../../../ingest/connectors/read-ledger.ts';

const authorities = '{"ky-utility":{"name":"Kentucky Utilities","type":"utility"}}';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local HTTP server whose answer to each request is the next handler; every request is logged. */
class ScriptedServer {
  readonly requests: { url: string; ifNoneMatch: string | undefined }[] = [];
  private server: Server | undefined;
  private handlers: Handler[] = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.requests.push({ url: req.url ?? '', ifNoneMatch: req.headers['if-none-match'] });
      const handler = this.handlers.length > 1 ? this.handlers.shift()! : this.handlers[0];
      if (handler) handler(req, res);
      else res.writeHead(500).end('no handler');
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers in this order; the last handler answers every request after that. */
  answer(...handlers: Handler[]): void {
    this.handlers = handlers;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

const ok =
  (body: string, etag?: string): Handler =>
  (req, res) => {
    if (etag && req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
    res.writeHead(200, { 'content-type': 'application/json', ...(etag ? { etag } : {}) }).end(body);
  };
const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    void res.writeHead(code, headers).end();
const silent: Handler = () => undefined;

let server: ScriptedServer;
let base: string;
let waits: number[];
/** Fast, deterministic retries: the waits are recorded instead of slept, the jitter is fixed at its middle. */
const retryOptions = () => ({
  backoffMs: 100,
  sleep: async (ms: number) => void waits.push(ms),
  random: () => 0.5,
});

beforeEach(async () => {
  server = new ScriptedServer();
  base = await server.start();
  waits = [];
});

afterEach(async () => {
  await server.stop();
});

describe('HTTP reader', () => {
  it('GETs base/path and records the file read', async () => {
    server.answer(ok(authorities));
    const reader = createHttpReader(`${base}/ra-data`, retryOptions());

    expect((await reader.read('data/KY/authorities.json'))?.toString()).toBe(authorities);
    expect(server.requests.map((r) => r.url)).toEqual(['/ra-data/data/KY/authorities.json']);
    expect(reader.filesRead()).toEqual([
      { path: 'data/KY/authorities.json', bytes: authorities.length, sha256: sha256Hex(authorities) },
    ]);
  });

  it('sends the cached ETag and serves an unchanged file (304) from the cache', async ({
    tempDir: cacheDir,
  }) => {
    server.answer(ok(authorities, '"v1"'));
    const first = createHttpReader(`${base}/ra-data/`, { cacheDir, ...retryOptions() });
    await first.read('data/KY/authorities.json');

    const second = createHttpReader(`${base}/ra-data/`, { cacheDir, ...retryOptions() });
    const body = await second.read('data/KY/authorities.json');

    expect(body?.toString()).toBe(authorities);
    expect(server.requests).toEqual([
      { url: '/ra-data/data/KY/authorities.json', ifNoneMatch: undefined },
      { url: '/ra-data/data/KY/authorities.json', ifNoneMatch: '"v1"' },
    ]);
    expect(second.filesRead()).toEqual(first.filesRead());
  });

  it('asks without the ETag when the cached body was damaged', async ({ tempDir: cacheDir }) => {
    server.answer(ok(authorities, '"v1"'));
    await createHttpReader(`${base}/a.json`, { cacheDir, ...retryOptions() }).read('');
    for (const file of await readdir(cacheDir)) {
      if (file.endsWith('.body')) await writeFile(path.join(cacheDir, file), '{"trunc');
    }

    const body = await createHttpReader(`${base}/a.json`, { cacheDir, ...retryOptions() }).read('');

    expect(body?.toString()).toBe(authorities);
    expect(server.requests.map((r) => r.ifNoneMatch)).toEqual([undefined, undefined]);
  });

  it('takes the new body when the ETag no longer matches', async ({ tempDir: cacheDir }) => {
    server.answer(ok(authorities, '"v1"'));
    await createHttpReader(`${base}/a.json`, { cacheDir, ...retryOptions() }).read('');
    server.answer(ok('{"changed":true}', '"v2"'));

    const body = await createHttpReader(`${base}/a.json`, { cacheDir, ...retryOptions() }).read('');

    expect(body?.toString()).toBe('{"changed":true}');
  });

  it('retries 503 with exponential backoff and jitter, then succeeds', async () => {
    server.answer(status(503), status(503), ok(authorities));
    const reader = createHttpReader(`${base}/a.json`, retryOptions());

    expect((await reader.read(''))?.toString()).toBe(authorities);
    expect(server.requests).toHaveLength(3);
    // 100 ms then 200 ms, each with jitter fixed at 0.5: half of it plus half of the other half.
    expect(waits).toEqual([75, 150]);
  });

  it('waits as long as a 429 Retry-After asks before trying again', async () => {
    server.answer(status(429, { 'retry-after': '2' }), ok(authorities));
    const reader = createHttpReader(`${base}/a.json`, retryOptions());

    expect((await reader.read(''))?.toString()).toBe(authorities);
    expect(waits).toEqual([2000]);
  });

  it('fails at once when Retry-After is longer than it is willing to wait', async () => {
    server.answer(status(429, { 'retry-after': '3600' }));
    const reader = createHttpReader(`${base}/a.json`, { ...retryOptions(), maxDelayMs: 60_000 });

    await expect(reader.read('')).rejects.toThrow(
      `GET ${base}/a.json: server asked to retry after 3600000 ms, longer than the 60000 ms limit`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('gives up with the reason once its retries are spent', async () => {
    server.answer(status(502));
    const reader = createHttpReader(`${base}/a.json`, { ...retryOptions(), retries: 2 });

    await expect(reader.read('')).rejects.toThrow(
      `GET ${base}/a.json: failed after 3 attempts: HTTP 502 Bad Gateway`,
    );
    expect(server.requests).toHaveLength(3);
  });

  it('times out a request that does not answer, retries it, then fails', async () => {
    server.answer(silent);
    const reader = createHttpReader(`${base}/a.json`, { ...retryOptions(), timeoutMs: 100, retries: 1 });

    await expect(reader.read('')).rejects.toThrow(
      `GET ${base}/a.json: failed after 2 attempts: timed out after 100 ms`,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('retries a refused connection as a network error', async () => {
    await server.stop();
    const reader = createHttpReader(`${base}/a.json`, { ...retryOptions(), retries: 1 });

    const error = await reader.read('').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(HttpSourceError);
    expect((error as Error).message).toMatch(
      /failed after 2 attempts: connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
    );
  });

  it('answers null for 404', async () => {
    server.answer(status(404));
    const reader = createHttpReader(`${base}/ra-data`, retryOptions());

    expect(await reader.read('data/TX/programs.json')).toBeNull();
    expect(server.requests).toHaveLength(1);
    expect(reader.filesRead()).toEqual([]);
  });

  it('does not retry other 4xx answers', async () => {
    server.answer(status(403));
    const reader = createHttpReader(`${base}/a.json`, retryOptions());

    await expect(reader.read('')).rejects.toThrow(`GET ${base}/a.json: HTTP 403 Forbidden (not retried)`);
    expect(server.requests).toHaveLength(1);
  });

  it('checks a single-file source against its declared SHA-256', async () => {
    server.answer(ok(authorities));
    const good = createHttpReader(`${base}/a.json`, { ...retryOptions(), sha256: sha256Hex(authorities) });
    const bad = createHttpReader(`${base}/a.json`, { ...retryOptions(), sha256: sha256Hex('other') });

    expect((await good.read(''))?.toString()).toBe(authorities);
    const error = await bad.read('').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChecksumError);
    expect((error as Error).message).toBe(
      `SHA-256 mismatch for ${base}/a.json: expected ${sha256Hex('other')}, got ${sha256Hex(authorities)}`,
    );
  });

  it('refuses paths that leave the base URL', async () => {
    const reader = createHttpReader(`${base}/ra-data/`, retryOptions());

    await expect(reader.read('../admin')).rejects.toThrow('path "../admin" is not inside');
    expect(server.requests).toEqual([]);
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-05T12:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Mon, 05 Jan 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 05 Jan 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
