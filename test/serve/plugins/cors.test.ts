import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import type { SourceRecord } from '../../../ingest/source.ts';
import { rewiringAmericaOpenDataParser } from '../../../ingest/parsers/rewiring-america-open-data.ts';
import type { ZodApp } from '../../../serve/route-group.ts';
import { IN_PROCESS_KEY, inProcessApp } from '../../conformance/in-process-app.ts';
import { chromiumMissing, launchChromium, reportMissingChromium } from '../../support/headless-chromium.ts';

const SAMPLE_DIR = fileURLToPath(new URL('../../../ingest/sample-data/incentives', import.meta.url));
const CALCULATOR =
  '/api/v1/calculator?zip=02903&owner_status=homeowner&household_income=60000&household_size=3&tax_filing=single';
const SITE = 'https://calculator.example.org';
const OTHER_SITE = 'https://elsewhere.example.com';

let records: SourceRecord[];
beforeAll(async () => {
  records = await rewiringAmericaOpenDataParser.parse(createFileReader(SAMPLE_DIR));
});

let app: ZodApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});
const serve = async (corsOrigins?: string) => {
  app = await inProcessApp(records, {
    asOfDate: '2026-06-01',
    env: corsOrigins === undefined ? {} : { CORS_ORIGINS: corsOrigins },
  });
  return app;
};

const preflight = (origin: string, url = CALCULATOR) =>
  app!.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });
const keyed = (headers: Record<string, string> = {}) =>
  app!.inject({
    method: 'GET',
    url: CALCULATOR,
    headers: { authorization: `Bearer ${IN_PROCESS_KEY}`, ...headers },
  });

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'));

describe('without CORS_ORIGINS (the default)', () => {
  it('adds no CORS header, and a preflight gets the 405 any unserved method gets', async () => {
    await serve();
    const answer = await keyed({ origin: SITE });
    expect(answer.statusCode).toBe(200);
    expect(corsHeaders(answer.headers)).toEqual([]);
    const refused = await preflight(SITE);
    expect(refused.statusCode).toBe(405);
    expect(refused.headers.allow).toBe('GET, HEAD');
    expect(corsHeaders(refused.headers)).toEqual([]);
    expect(refused.json()).toEqual({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: 'Method OPTIONS is not allowed on /api/v1/calculator; allowed: GET, HEAD',
    });
  });
});

describe('with CORS_ORIGINS naming the sites allowed', () => {
  it('answers an allowed origin’s preflight with 204 and the policy, without a key and outside the rate limit', async () => {
    await serve(`${SITE},${OTHER_SITE}`);
    const answer = await preflight(SITE);
    expect(answer.statusCode).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': SITE,
      'access-control-allow-methods': 'GET, HEAD, POST',
      'access-control-allow-headers': 'Authorization, Content-Type, If-None-Match, If-Range, Range',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    expect(answer.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('lets an allowed origin read the answer and its rate-limit headers', async () => {
    await serve(SITE);
    const answer = await keyed({ origin: SITE });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(SITE);
    expect(answer.headers['access-control-expose-headers']).toBe(
      'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, X-Snapshot-Id, Content-Range, Accept-Ranges',
    );
    // The coding of the body was chosen by Accept-Encoding as well.
    expect(answer.headers.vary).toBe('Origin, accept-encoding');
  });

  it('lets an allowed origin read a refusal too (a 401 for a missing key)', async () => {
    await serve(SITE);
    const answer = await app!.inject({ method: 'GET', url: CALCULATOR, headers: { origin: SITE } });
    expect(answer.statusCode).toBe(401);
    expect(answer.headers['access-control-allow-origin']).toBe(SITE);
    expect(answer.json().message).toMatch(/^Missing API key: send the header "Authorization: Bearer <key>"/);
  });

  it('says nothing to an origin not listed, and refuses its preflight with 405', async () => {
    await serve(SITE);
    const answer = await keyed({ origin: 'https://calculator.example.org.attacker.net' });
    expect(answer.statusCode).toBe(200);
    expect(corsHeaders(answer.headers)).toEqual([]);
    const refused = await preflight('http://calculator.example.org');
    expect(refused.statusCode).toBe(405);
    expect(corsHeaders(refused.headers)).toEqual([]);
  });

  it('answers an OPTIONS that is not a preflight (no Access-Control-Request-Method) with the usual 405', async () => {
    await serve(SITE);
    const answer = await app!.inject({ method: 'OPTIONS', url: CALCULATOR, headers: { origin: SITE } });
    expect(answer.statusCode).toBe(405);
    expect(answer.json().error).toBe('Method Not Allowed');
  });

  it('never replays one origin’s CORS headers from the response cache to another caller', async () => {
    await serve(`${SITE},${OTHER_SITE}`);
    const first = await keyed({ origin: SITE });
    const replayed = await keyed({ origin: OTHER_SITE });
    expect(replayed.body).toBe(first.body);
    expect(replayed.headers.etag).toBe(first.headers.etag);
    expect(replayed.headers['access-control-allow-origin']).toBe(OTHER_SITE);
    const noOrigin = await keyed();
    expect(noOrigin.body).toBe(first.body);
    expect(corsHeaders(noOrigin.headers)).toEqual([]);
    expect([first, replayed, noOrigin].map((answer) => answer.headers.vary)).toEqual([
      'Origin, accept-encoding',
      'Origin, accept-encoding',
      'Origin, accept-encoding',
    ]);
  });

  it('allows every origin with *', async () => {
    await serve('*');
    const answer = await preflight('https://any.example.net');
    expect(answer.statusCode).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect((await keyed({ origin: 'https://any.example.net' })).headers['access-control-allow-origin']).toBe(
      '*',
    );
  });
});

/** A server of one tiny page: a site that embeds the calculator, on its own loopback origin. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>An incentives calculator</title><p>embedded</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

reportMissingChromium('CORS');
describe.skipIf(chromiumMissing)('a page of another origin calling the API in chromium', () => {
  let browser: Browser;
  let allowedSite: Awaited<ReturnType<typeof pageServer>>;
  let otherSite: Awaited<ReturnType<typeof pageServer>>;
  let api: ZodApp;
  let apiOrigin: string;
  /** What reached the API, per calling page: the browser sends a keyed GET only after an accepted preflight. */
  const seen: string[] = [];
  beforeAll(async () => {
    [allowedSite, otherSite] = await Promise.all([pageServer(), pageServer()]);
    api = await inProcessApp(records, { asOfDate: '2026-06-01', env: { CORS_ORIGINS: allowedSite.origin } });
    api.addHook('onResponse', async (request, reply) => {
      const from = request.headers.origin === allowedSite.origin ? 'allowed' : 'other';
      seen.push(`${from} ${request.method} ${reply.statusCode}`);
    });
    apiOrigin = await api.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    allowedSite?.server.close();
    otherSite?.server.close();
  });

  /** Runs fetch() with the key in a page of `site`: what the page's script gets to see. */
  async function fetchFrom(site: string) {
    const page = await browser.newPage();
    try {
      await page.goto(`${site}/`);
      return await page.evaluate(
        async ({ url, key }) => {
          try {
            const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
            const body = (await response.json()) as { is_under_80_ami?: unknown };
            return {
              status: response.status,
              remaining: response.headers.get('X-RateLimit-Remaining'),
              etag: response.headers.get('ETag'),
              answered: 'is_under_80_ami' in body,
            };
          } catch (error) {
            return { rejected: `${(error as Error).name}: ${(error as Error).message}` };
          }
        },
        { url: `${apiOrigin}${CALCULATOR}`, key: IN_PROCESS_KEY },
      );
    } finally {
      await page.close();
    }
  }

  it('lets the allowed site’s script read the answer and X-RateLimit-Remaining', async () => {
    seen.length = 0;
    const result = await fetchFrom(allowedSite.origin);
    expect(result).toEqual({
      status: 200,
      remaining: '999999999',
      etag: expect.stringMatching(/^"[\w-]+"$/),
      answered: true,
    });
    expect(seen).toEqual(['allowed OPTIONS 204', 'allowed GET 200']);
  });

  it('makes the browser refuse the call from another site: fetch rejects, and no keyed request is sent', async () => {
    seen.length = 0;
    expect(await fetchFrom(otherSite.origin)).toEqual({ rejected: 'TypeError: Failed to fetch' });
    expect(seen).toEqual(['other OPTIONS 405']);
  });
});
