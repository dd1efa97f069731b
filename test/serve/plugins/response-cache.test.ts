import Fastify, { type FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { RouteGroup, ZodApp } from '../../../serve/route-group.ts';
import { buildApp } from '../../../serve/app.ts';
import { HttpError } from '../../../serve/errors.ts';
import type { Compressor } from '../../../serve/http/body-encoding.ts';
import type { LruLimits } from '../../../serve/plugins/response-cache.ts';
import { responseCachePlugin } from '../../../serve/plugins/response-cache.ts';
import { SnapshotHolder } from '../../../serve/snapshot/snapshot-holder.ts';
import {
  MemorySnapshotSource,
  PROGRAMS,
  countingCompressor,
  memoryReader,
  silentLogger,
  testConfig,
} from '../../support/serve-fixtures.ts';

const KEY = 'response-cache-test-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };

interface AnswerData {
  snapshot: string;
}

/**
 * GET /v1/answer?n=… answers `{"snapshot":…,"n":…,"pad":"xxx…"}` and counts its calls, so a test sees
 * whether an answer came from the handler or from the cache. n=missing is a 404; live=1 opts out.
 * GET /v1/parity?n=… answers whether n is even, and keys each answer by the parity of a numeric n.
 * POST /v1/parity with {"n":…,"pad":…} does the same (padded with pad x's), keyed by its body.
 */
function answerModule(
  calls: string[],
  onAnswerKey: (url: string) => void = () => undefined,
): RouteGroup<AnswerData> {
  return {
    loader: {
      name: 'answers',
      tables: [PROGRAMS],
      load: async (snapshot) => ({ snapshot: snapshot.id }),
    },
    register(app, ctx) {
      app.get(
        '/v1/answer',
        { config: { keepAnswer: (request) => !request.url.includes('live=1') } },
        async (request, reply) => {
          calls.push(request.url);
          const query = request.query as { n?: string; pad?: string };
          if (query.n === 'missing') throw new HttpError(404, 'NOT_FOUND', 'no such n', 'n');
          const body = {
            snapshot: ctx.data(request).snapshot,
            n: query.n,
            pad: 'x'.repeat(Number(query.pad ?? 0)),
          };
          return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
        },
      );
      const numberOf = (request: FastifyRequest) => Number((request.query as { n?: string }).n);
      app.get(
        '/v1/parity',
        {
          config: {
            answerKey: (request) => {
              onAnswerKey(request.url);
              return Number.isInteger(numberOf(request)) ? `parity ${numberOf(request) % 2}` : undefined;
            },
          },
        },
        async (request, reply) => {
          calls.push(request.url);
          const n = numberOf(request);
          return reply.type('application/json; charset=utf-8').send(JSON.stringify({ even: n % 2 === 0 }));
        },
      );
      const bodyNumber = (request: FastifyRequest) => (request.body as { n?: unknown } | null)?.n;
      const bodyPad = (request: FastifyRequest) =>
        Number((request.body as { pad?: unknown } | null)?.pad ?? 0);
      app.post(
        '/v1/parity',
        {
          config: {
            answerKey: (request) =>
              Number.isInteger(bodyNumber(request))
                ? `parity ${Number(bodyNumber(request)) % 2} pad ${bodyPad(request)}`
                : undefined,
          },
        },
        async (request, reply) => {
          calls.push(`POST ${JSON.stringify(request.body)}`);
          const n = bodyNumber(request);
          if (!Number.isInteger(n)) throw new HttpError(400, 'BAD_REQUEST', 'n: must be an integer', 'n');
          const pad = bodyPad(request);
          return reply
            .type('application/json; charset=utf-8')
            .send(
              JSON.stringify({ even: Number(n) % 2 === 0, ...(pad > 0 ? { pad: 'x'.repeat(pad) } : {}) }),
            );
        },
      );
    },
  };
}

let app: ZodApp | undefined;
let holder: SnapshotHolder | undefined;

async function start(
  options: {
    responseCache?: LruLimits;
    env?: Record<string, string>;
    compress?: Compressor;
    onAnswerKey?: (url: string) => void;
  } = {},
) {
  const calls: string[] = [];
  const source = new MemorySnapshotSource();
  source.publish(memoryReader('snap-a'));
  const logger = silentLogger();
  const module = answerModule(calls, options.onAnswerKey);
  holder = new SnapshotHolder({ source, loaders: [module.loader], pollMs: 60_000, logger });
  await holder.start();
  app = await buildApp({
    config: testConfig({ API_KEYS: KEY, ...options.env }),
    logger,
    snapshots: holder,
    routeGroups: [module as RouteGroup<unknown>],
    keyStore: {
      authenticate: (key) => (key === KEY ? { id: 'key_test', name: 'test', reviewer: false } : null),
    },
    ...(options.responseCache ? { responseCache: options.responseCache } : {}),
    ...(options.compress ? { compress: options.compress } : {}),
  });
  await app.ready();
  return { app, calls, source, holder };
}

afterEach(async () => {
  await app?.close();
  holder?.close();
});

const answerHeaders = (headers: Record<string, unknown>) => ({
  'content-type': headers['content-type'],
  'content-length': headers['content-length'],
  etag: headers.etag,
  'cache-control': headers['cache-control'],
  'x-snapshot-id': headers['x-snapshot-id'],
});

describe('response cache', () => {
  it('answers a repeated GET with the identical body and headers without calling the handler again', async () => {
    const { app, calls } = await start();
    const first = await app.inject({ method: 'GET', url: '/v1/answer?n=1', headers: auth });
    const second = await app.inject({ method: 'GET', url: '/v1/answer?n=1', headers: auth });
    expect(calls).toEqual(['/v1/answer?n=1']);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe('{"snapshot":"snap-a","n":"1","pad":""}');
    expect(second.body).toBe(first.body);
    expect(answerHeaders(second.headers)).toEqual(answerHeaders(first.headers));
    expect(second.headers['x-snapshot-id']).toBe('snap-a');
    expect(second.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    // The rate-limit headers are the request's own, not the cached answer's.
    expect(first.headers['x-ratelimit-remaining']).toBe('599');
    expect(second.headers['x-ratelimit-remaining']).toBe('598');
  });

  it('answers a matching If-None-Match on a cached answer with 304', async () => {
    const { app, calls } = await start();
    const first = await app.inject({ method: 'GET', url: '/v1/answer?n=1', headers: auth });
    const conditional = await app.inject({
      method: 'GET',
      url: '/v1/answer?n=1',
      headers: { ...auth, 'if-none-match': first.headers.etag as string },
    });
    expect(conditional.statusCode).toBe(304);
    expect(conditional.body).toBe('');
    expect(conditional.headers.etag).toBe(first.headers.etag);
    expect(conditional.headers['x-snapshot-id']).toBe('snap-a');
    expect(calls).toHaveLength(1);
  });

  it('never lets a kept answer, or a 304, reach a request without a valid key', async () => {
    const { app } = await start();
    const first = await app.inject({ method: 'GET', url: '/v1/answer?n=1', headers: auth });
    for (const headers of [{}, { authorization: 'Bearer wrong' }]) {
      for (const conditional of [{}, { 'if-none-match': first.headers.etag as string }]) {
        const response = await app.inject({
          method: 'GET',
          url: '/v1/answer?n=1',
          headers: { ...headers, ...conditional },
        });
        expect(response.statusCode).toBe(401);
        expect(response.body).not.toContain('snap-a');
        expect(response.headers['x-snapshot-id']).toBeUndefined();
      }
    }
  });

  it('refuses to be registered in a scope without the snapshot scope before it', async () => {
    const server = Fastify();
    await expect(
      server.register(responseCachePlugin, {
        responseCache: { maxBytes: 1024, maxEntries: 10 },
        answerVersion: 'test',
      }),
    ).rejects.toThrow(/electrify-snapshot-scope/);
    await server.close();
  });

  it('misses once a new snapshot is served', async () => {
    const { app, calls, source, holder } = await start();
    await app.inject({ method: 'GET', url: '/v1/answer?n=1', headers: auth });
    source.publish(memoryReader('snap-b'));
    await holder.refresh();
    const after = await app.inject({ method: 'GET', url: '/v1/answer?n=1', headers: auth });
    expect(after.body).toBe('{"snapshot":"snap-b","n":"1","pad":""}');
    expect(after.headers['x-snapshot-id']).toBe('snap-b');
    expect(calls).toHaveLength(2);
  });

  it('never keeps an error', async () => {
    const { app, calls } = await start();
    const statuses = [];
    for (let i = 0; i < 2; i++) {
      statuses.push(
        (await app.inject({ method: 'GET', url: '/v1/answer?n=missing', headers: auth })).statusCode,
      );
    }
    expect(statuses).toEqual([404, 404]);
    expect(calls).toHaveLength(2);
  });

  it('leaves out the requests a route opts out for', async () => {
    const { app, calls } = await start();
    for (let i = 0; i < 2; i++)
      await app.inject({ method: 'GET', url: '/v1/answer?n=1&live=1', headers: auth });
    expect(calls).toHaveLength(2);
  });

  it('serves only GET from the cache: a HEAD is answered by the handler', async () => {
    const { app, calls } = await start();
    await app.inject({ method: 'GET', url: '/v1/answer?n=1', headers: auth });
    const head = await app.inject({ method: 'HEAD', url: '/v1/answer?n=1', headers: auth });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(calls).toHaveLength(2);
  });

  it('keeps nothing with RESPONSE_CACHE_MB=0: every request is answered by the handler', async () => {
    const { app, calls } = await start({ env: { RESPONSE_CACHE_MB: '0' } });
    const answers = [];
    for (let i = 0; i < 2; i++)
      answers.push(await app.inject({ method: 'GET', url: '/v1/answer?n=1', headers: auth }));
    expect(calls).toHaveLength(2);
    expect(answers[1]!.body).toBe(answers[0]!.body);
    expect(answers[1]!.headers.etag).toBe(answers[0]!.headers.etag);
  });

  it('evicts the least recently used answers to stay within its byte bound', async () => {
    // Each answer charges about 1,550 bytes (1,000 of padding, the key and 512 of overhead): two fit.
    const { app, calls } = await start({ responseCache: { maxBytes: 3_200, maxEntries: 100 } });
    const get = (n: number) =>
      app.inject({ method: 'GET', url: `/v1/answer?n=${n}&pad=1000`, headers: auth });
    await get(1);
    await get(2);
    await get(1); // hit: 1 is now the most recently used
    await get(3); // evicts 2
    expect(calls).toHaveLength(3);
    await get(1);
    expect(calls).toHaveLength(3);
    await get(2);
    expect(calls.at(-1)).toBe('/v1/answer?n=2&pad=1000');
    expect(calls).toHaveLength(4);
  });
});

describe('answers keyed by their route (answerKey)', () => {
  it('share one cached answer and one ETag among the URLs of one name', async () => {
    const { app, calls } = await start();
    const two = await app.inject({ method: 'GET', url: '/v1/parity?n=2', headers: auth });
    const four = await app.inject({ method: 'GET', url: '/v1/parity?n=4', headers: auth });
    const three = await app.inject({ method: 'GET', url: '/v1/parity?n=3', headers: auth });
    expect(calls).toEqual(['/v1/parity?n=2', '/v1/parity?n=3']);
    expect([two.body, four.body, three.body]).toEqual(['{"even":true}', '{"even":true}', '{"even":false}']);
    expect(four.headers.etag).toBe(two.headers.etag);
    expect(three.headers.etag).not.toBe(two.headers.etag);
  });

  it('answer 304 to a tag of the same name, from the cache or before the handler (HEAD too)', async () => {
    const { app, calls } = await start();
    const two = await app.inject({ method: 'GET', url: '/v1/parity?n=2', headers: auth });
    const conditional = { ...auth, 'if-none-match': two.headers.etag as string };
    const six = await app.inject({ method: 'GET', url: '/v1/parity?n=6', headers: conditional });
    const eight = await app.inject({ method: 'HEAD', url: '/v1/parity?n=8', headers: conditional });
    const five = await app.inject({ method: 'GET', url: '/v1/parity?n=5', headers: conditional });
    expect([six.statusCode, eight.statusCode, five.statusCode]).toEqual([304, 304, 200]);
    expect(calls).toEqual(['/v1/parity?n=2', '/v1/parity?n=5']);
  });

  it('are computed once while the snapshot is served, and again for a new one', async () => {
    const { app, calls, source, holder } = await start();
    const tags = new Set();
    for (const url of ['/v1/parity?n=2', '/v1/parity?n=2', '/v1/parity?n=4', '/v1/parity?n=2']) {
      const response = await app.inject({ method: 'GET', url, headers: auth });
      expect(response.body).toBe('{"even":true}');
      tags.add(response.headers.etag);
    }
    expect(tags.size).toBe(1);
    source.publish(memoryReader('snap-b'));
    await holder.refresh();
    const after = await app.inject({ method: 'GET', url: '/v1/parity?n=4', headers: auth });
    expect(tags.has(after.headers.etag)).toBe(false);
    expect(calls).toEqual(['/v1/parity?n=2', '/v1/parity?n=4']);
  });

  it('answer a URL seen before by the URL alone, without working out its key again', async () => {
    const keyed: string[] = [];
    const { app } = await start({
      onAnswerKey: (url) => keyed.push(url),
    });
    for (const url of ['/v1/parity?n=2', '/v1/parity?n=2', '/v1/parity?n=4', '/v1/parity?n=4']) {
      expect((await app.inject({ method: 'GET', url, headers: auth })).body).toBe('{"even":true}');
    }
    // n=2: keyed to look it up, and to keep it; n=4: keyed to find n=2's answer; each URL's repeat: not at all.
    expect(keyed).toEqual(['/v1/parity?n=2', '/v1/parity?n=2', '/v1/parity?n=4']);
  });

  it('leave a request the route does not key to its URL', async () => {
    const { app, calls } = await start();
    const first = await app.inject({ method: 'GET', url: '/v1/parity?n=x&a=1&b=2', headers: auth });
    const reordered = await app.inject({ method: 'GET', url: '/v1/parity?b=2&n=x&a=1', headers: auth });
    await app.inject({ method: 'GET', url: '/v1/parity?n=x&a=1&b=2', headers: auth });
    // Its canonical form (parameters sorted) keys the cache and names it in the ETag.
    expect(calls).toEqual(['/v1/parity?n=x&a=1&b=2']);
    expect(reordered.body).toBe(first.body);
    expect(reordered.headers.etag).toBe(first.headers.etag);
  });
});

describe('POST answers keyed by their body (answerKey)', () => {
  const post = (target: ZodApp, body: unknown, headers: Record<string, string> = {}) =>
    target.inject({
      method: 'POST',
      url: '/v1/parity',
      headers: { ...auth, ...headers },
      payload: body as object,
    });

  it('share one cached answer and one ETag among the bodies of one name, without calling the handler again', async () => {
    const { app, calls } = await start();
    const two = await post(app, { n: 2 });
    const four = await post(app, { n: 4 });
    const three = await post(app, { n: 3 });
    expect(calls).toEqual(['POST {"n":2}', 'POST {"n":3}']);
    expect([two.body, four.body, three.body]).toEqual(['{"even":true}', '{"even":true}', '{"even":false}']);
    expect(two.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(answerHeaders(four.headers)).toEqual(answerHeaders(two.headers));
    expect(three.headers.etag).not.toBe(two.headers.etag);
    // A GET of the same name is another answer: the route's path and method keep them apart.
    const get = await app.inject({ method: 'GET', url: '/v1/parity?n=2', headers: auth });
    expect(get.headers.etag).not.toBe(two.headers.etag);
  });

  it('leave bodies the route does not key, and errors, to the handler every time; never answer 304', async () => {
    const { app, calls } = await start();
    const refused = await post(app, { n: 'x' });
    await post(app, { n: 'x' });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers.etag).toBeUndefined();
    const two = await post(app, { n: 2 });
    const conditional = await post(app, { n: 2 }, { 'if-none-match': two.headers.etag as string });
    expect(conditional.statusCode).toBe(200);
    expect(calls).toEqual(['POST {"n":"x"}', 'POST {"n":"x"}', 'POST {"n":2}']);
  });

  it('answer a repeated body, or the same body written otherwise, from the cache', async () => {
    const { app, calls } = await start();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await post(app, { n: 2 }));
    const spaced = await app.inject({
      method: 'POST',
      url: '/v1/parity',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{ "n": 2 }',
    });
    expect(calls).toEqual(['POST {"n":2}']);
    expect([...answers, spaced].map((a) => [a.statusCode, a.body, a.headers.etag])).toEqual(
      Array(4).fill([200, '{"even":true}', answers[0]!.headers.etag]),
    );
  });

  it('keep nothing with RESPONSE_CACHE_MB=0', async () => {
    const { app, calls } = await start({ env: { RESPONSE_CACHE_MB: '0' } });
    await post(app, { n: 2 });
    await post(app, { n: 2 });
    expect(calls).toEqual(['POST {"n":2}', 'POST {"n":2}']);
  });
});

describe('rate limit headers', () => {
  it('report the limit, what is left and the seconds until the window resets; a 429 adds Retry-After', async () => {
    const { app } = await start({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await app.inject({ method: 'GET', url: '/v1/answer?n=1', headers: auth }));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
    expect(answers.map((a) => [a.headers['x-ratelimit-limit'], a.headers['x-ratelimit-remaining']])).toEqual([
      ['2', '1'],
      ['2', '0'],
      ['2', '0'],
    ]);
    const reset = Number(answers[2]!.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(answers[2]!.headers['retry-after']).toBe(String(reset));
  });
});

describe('compressed answers', () => {
  const url = '/v1/answer?n=1&pad=4000';
  const get = (headers: Record<string, string>, path = url) =>
    app!.inject({ method: 'GET', url: path, headers: { ...auth, ...headers } });
  const decoded = (response: { rawPayload: Buffer; headers: Record<string, unknown> }) => {
    const coding = response.headers['content-encoding'];
    if (coding === 'br') return brotliDecompressSync(response.rawPayload).toString();
    if (coding === 'gzip') return gunzipSync(response.rawPayload).toString();
    return response.rawPayload.toString();
  };

  it('answers in the coding the client prefers, with Vary and a tag per coding, the same JSON in each', async () => {
    await start();
    const plain = await get({});
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await get({ 'accept-encoding': 'gzip' });
    const refused = await get({ 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(plain.body).toBe(`{"snapshot":"snap-a","n":"1","pad":"${'x'.repeat(4000)}"}`);
    const etag = plain.headers.etag as string;
    expect(
      [plain, br, gzip, refused].map((r) => [r.headers['content-encoding'], r.headers.etag, r.headers.vary]),
    ).toEqual([
      [undefined, etag, 'accept-encoding'],
      ['br', `${etag.slice(0, -1)}-br"`, 'accept-encoding'],
      ['gzip', `${etag.slice(0, -1)}-gz"`, 'accept-encoding'],
      [undefined, etag, 'accept-encoding'],
    ]);
    for (const response of [br, gzip, refused]) expect(decoded(response)).toBe(plain.body);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 10);
    expect([br, gzip].map((r) => r.headers['cache-control'])).toEqual([
      'private, no-cache',
      'private, no-cache',
    ]);
  });

  it('sends a kept answer compressed once: a hit decodes to the answer, even one whose compressed form is long', async () => {
    await start();
    // Hex digits of a hash chain: compressed, still well over 1 KB.
    let digits = '';
    for (let link = 'seed'; digits.length < 8000; digits += link)
      link = createHash('sha256').update(link).digest('hex');
    const path = `/v1/answer?n=${digits}`;
    const plain = await get({}, path);
    for (const coding of ['br', 'gzip']) {
      const miss = await get({ 'accept-encoding': coding }, path);
      const hit = await get({ 'accept-encoding': coding }, path);
      expect(miss.rawPayload.length).toBeGreaterThan(1024);
      expect([decoded(miss), decoded(hit)]).toEqual([plain.body, plain.body]);
      expect(hit.rawPayload.equals(miss.rawPayload)).toBe(true);
    }
  });

  it('compresses a kept answer once per coding: later hits send the kept bytes', async () => {
    const { compress, calls } = countingCompressor();
    const { calls: handled } = await start({ compress });
    const first = await get({ 'accept-encoding': 'br' });
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push(await get({ 'accept-encoding': 'br' }));
    expect(calls).toEqual(['br']);
    for (const hit of hits) expect(hit.rawPayload.equals(first.rawPayload)).toBe(true);
    // Another coding is compressed on its first request, from the kept answer (the handler ran once).
    const gzip = await get({ 'accept-encoding': 'gzip' });
    await get({ 'accept-encoding': 'gzip' });
    await get({});
    expect(calls).toEqual(['br', 'gzip']);
    expect(handled).toEqual([url]);
    expect(decoded(gzip)).toBe(decoded(first));
  });

  it('answers If-None-Match per coding: 304 with the tag the client holds, else the answer', async () => {
    const { calls: handled } = await start();
    // Through the cache and, for an answer the route does not keep, before the handler runs.
    for (const path of [url, `${url}&live=1`]) {
      const plainTag = (await get({}, path)).headers.etag as string;
      const brTag = (await get({ 'accept-encoding': 'br' }, path)).headers.etag as string;
      expect(brTag).toBe(`${plainTag.slice(0, -1)}-br"`);
      const sameCoding = await get({ 'accept-encoding': 'br', 'if-none-match': brTag }, path);
      expect([sameCoding.statusCode, sameCoding.headers.etag, sameCoding.headers.vary]).toEqual([
        304,
        brTag,
        'accept-encoding',
      ]);
      expect(sameCoding.body).toBe('');
      // The unencoded answer is still current for a client that now accepts brotli.
      const heldPlain = await get({ 'accept-encoding': 'br', 'if-none-match': plainTag }, path);
      expect([heldPlain.statusCode, heldPlain.headers.etag]).toEqual([304, plainTag]);
      // A brotli tag means nothing to a request the answer would go to in gzip: the answer is sent.
      const otherCoding = await get({ 'accept-encoding': 'gzip', 'if-none-match': brTag }, path);
      expect([otherCoding.statusCode, otherCoding.headers['content-encoding']]).toEqual([200, 'gzip']);
      expect(otherCoding.headers.etag).toBe(`${plainTag.slice(0, -1)}-gz"`);
    }
    const live = `${url}&live=1`;
    expect(handled).toEqual([url, live, live, live]);
  });

  it('sends a body under 1 KB as it is, with Vary, to a client that accepts compression', async () => {
    const { compress, calls } = countingCompressor();
    await start({ compress });
    const small = await get({ 'accept-encoding': 'br, gzip' }, '/v1/answer?n=2');
    const again = await get(
      { 'accept-encoding': 'br, gzip', 'if-none-match': small.headers.etag as string },
      '/v1/answer?n=2',
    );
    expect(small.body).toBe('{"snapshot":"snap-a","n":"2","pad":""}');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBe('accept-encoding');
    expect(small.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(again.statusCode).toBe(304);
    expect(calls).toEqual([]);
  });

  it('compresses neither errors nor a HEAD’s kept answer, and a HEAD says what a GET would send', async () => {
    const { compress, calls } = countingCompressor();
    await start({ compress });
    const missing = await get({ 'accept-encoding': 'br' }, '/v1/answer?n=missing&pad=4000');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    const head = await app!.inject({ method: 'HEAD', url, headers: { ...auth, 'accept-encoding': 'br' } });
    const getAnswer = await get({ 'accept-encoding': 'br' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect([head.headers['content-encoding'], head.headers.etag, head.headers['content-length']]).toEqual([
      'br',
      getAnswer.headers.etag,
      getAnswer.headers['content-length'],
    ]);
    expect(calls).toEqual(['br', 'br']);
  });

  it('compresses a POST answer keyed by its body, and keeps it compressed like a GET’s', async () => {
    const { compress, calls } = countingCompressor();
    const { calls: handled } = await start({ compress });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      app!.inject({
        method: 'POST',
        url: '/v1/parity',
        headers: { ...auth, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(body),
      });
    const plain = await post({ n: 2, pad: 3000 });
    const gzip = await post({ n: 4, pad: 3000 }, { 'accept-encoding': 'gzip' });
    const again = await post({ n: 6, pad: 3000 }, { 'accept-encoding': 'gzip' });
    expect([gzip.statusCode, gzip.headers['content-encoding'], gzip.headers.vary]).toEqual([
      200,
      'gzip',
      'accept-encoding',
    ]);
    expect(gzip.headers.etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-gz"`);
    expect(decoded(gzip)).toBe(plain.body);
    expect(again.rawPayload.equals(gzip.rawPayload)).toBe(true);
    expect(calls).toEqual(['gzip']);
    expect(handled).toEqual(['POST {"n":2,"pad":3000}']);
    // A short answer goes as it is, with Vary.
    const short = await post({ n: 3 }, { 'accept-encoding': 'gzip' });
    expect([short.body, short.headers['content-encoding'], short.headers.vary]).toEqual([
      '{"even":false}',
      undefined,
      'accept-encoding',
    ]);
  });
});
