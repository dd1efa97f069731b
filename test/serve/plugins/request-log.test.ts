import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../serve/app.ts';
import type { ZodApp } from '../../../serve/route-group.ts';
import { loadSnapshot } from '../../../serve/snapshot/snapshot-holder.ts';
import { logsResponse } from '../../../serve/plugins/request-log.ts';
import { memoryReader, programsModule, testConfig } from '../../support/serve-fixtures.ts';

const KEY = 'request-log-test-key-0123456789';
const withKey = { authorization: `Bearer ${KEY}` };

/** The log lines the app wrote, parsed. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

let app: ZodApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(env: Record<string, string>, random: () => number) {
  const { logger, lines } = capturedLogger();
  const module = programsModule();
  const snapshot = await loadSnapshot(memoryReader('snap-1'), [module.loader]);
  app = await buildApp({
    config: testConfig({ API_KEYS: KEY, ...env }),
    logger,
    snapshots: { current: () => snapshot },
    routeGroups: [module],
    keyStore: {
      authenticate: (given) =>
        given === KEY ? { id: 'partner-a', name: 'Partner A', reviewer: false } : null,
    },
    random,
  });
  return lines;
}

/** A line's fields that say what the request was, without its timing. */
const described = ({ reqId, method, route, statusCode, bytes, key, code, msg }: Record<string, unknown>) => ({
  reqId,
  method,
  route,
  statusCode,
  bytes,
  key,
  code,
  msg,
});

describe('logsResponse', () => {
  it('logs every error and, of the other responses, those whose draw falls under the sample', () => {
    expect(logsResponse(200, 1, () => 0.999)).toBe(true);
    expect(logsResponse(200, 0.1, () => 0.05)).toBe(true);
    expect(logsResponse(304, 0.1, () => 0.1)).toBe(false);
    expect(logsResponse(200, 0, () => 0)).toBe(false);
    expect(logsResponse(404, 0, () => 0.5)).toBe(true);
    expect(logsResponse(429, 0, () => 0.5)).toBe(true);
    expect(logsResponse(503, 0, () => 0.5)).toBe(true);
  });
});

describe('the request-log plugin', () => {
  it('writes one line per request: method, route pattern, status, time, bytes, key id and error code, never the query', async () => {
    const lines = await start({}, () => 0.5);
    const ok = await app!.inject({ url: '/v1/programs?minAmount=2000', headers: withKey });
    const unknown = await app!.inject({ url: '/v1/nothing-here?address=1%20Main%20St' });
    const unauthorized = await app!.inject({ url: '/v1/programs?minAmount=1' });
    expect([ok.statusCode, unknown.statusCode, unauthorized.statusCode]).toEqual([200, 404, 401]);

    const requestLines = lines.filter((line) => line.msg === 'request');
    expect(requestLines.map(described)).toEqual([
      {
        reqId: 'req-1',
        method: 'GET',
        route: '/v1/programs',
        statusCode: 200,
        bytes: Buffer.byteLength(ok.body),
        key: 'partner-a',
        code: undefined,
        msg: 'request',
      },
      {
        reqId: 'req-2',
        method: 'GET',
        route: undefined,
        statusCode: 404,
        bytes: Buffer.byteLength(unknown.body),
        key: undefined,
        code: 'NOT_FOUND',
        msg: 'request',
      },
      {
        reqId: 'req-3',
        method: 'GET',
        route: '/v1/programs',
        statusCode: 401,
        bytes: Buffer.byteLength(unauthorized.body),
        key: undefined,
        code: 'UNAUTHORIZED',
        msg: 'request',
      },
    ]);
    for (const line of requestLines) expect(line.ms).toBeTypeOf('number');
    // An error's line carries its message; it is the request's only line.
    expect(requestLines[2]!.message).toBe(JSON.parse(unauthorized.body).message);
    expect(lines.map((line) => line.reqId)).toEqual(['req-1', 'req-2', 'req-3']);
    // Fastify's own "incoming request" and "request completed" lines are off.
    expect(lines.filter((line) => /incoming request|request completed/.test(String(line.msg)))).toEqual([]);
    const all = JSON.stringify(lines);
    expect(all).not.toContain('minAmount');
    expect(all).not.toContain('Main');
    expect(all).not.toContain(KEY);
  });

  it('with REQUEST_LOG_SAMPLE, logs that share of successful requests and every error', async () => {
    const draws = [0.1, 0.3, 0.2, 0.9];
    const lines = await start({ REQUEST_LOG_SAMPLE: '0.25' }, () => draws.shift() ?? 0.99);
    for (let i = 0; i < 4; i++) await app!.inject({ url: '/v1/programs', headers: withKey });
    await app!.inject({ url: '/v1/programs' });
    expect(
      lines.filter((line) => line.msg === 'request').map(({ reqId, statusCode }) => ({ reqId, statusCode })),
    ).toEqual([
      { reqId: 'req-1', statusCode: 200 },
      { reqId: 'req-3', statusCode: 200 },
      { reqId: 'req-5', statusCode: 401 },
    ]);
  });
});
