import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';

/*
 * Why a plugin of its own: Fastify's request logging writes two lines per request (one as it arrives,
 * one as it completes) and puts the URL in them, query included, so addresses and incomes would land in
 * the logs. This writes one line per completed request, with what an operator counts and times by: the
 * method, the route's pattern (never the URL), the status, the time taken, the bytes sent, the id of
 * the API key (never the key) and, for an error, its code and message (so a refused request is one line
 * too). Registered on the root, so it covers every route and unknown paths alike.
 */

export interface RequestLogOptions {
  /** REQUEST_LOG_SAMPLE: the share of successful requests logged (errors always are). */
  sample: number;
  /** A number in [0, 1) per request (tests fix it). */
  random?: () => number;
}

/** Whether a response gets its log line: every error (status 400 and up), and a `sample` share of the rest. */
export function logsResponse(statusCode: number, sample: number, random: () => number): boolean {
  return statusCode >= 400 || random() < sample;
}

export const requestLogPlugin = fp<RequestLogOptions>(
  async (app, { sample, random = Math.random }) => {
    app.addHook(
      'onResponse',
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        const statusCode = reply.statusCode;
        if (logsResponse(statusCode, sample, random)) {
          const length = reply.getHeader('content-length');
          const failure = request.failure;
          request.log.info(
            {
              method: request.method,
              route: request.routeOptions.url,
              statusCode,
              ms: Math.round(reply.elapsedTime * 100) / 100,
              bytes: length === undefined ? undefined : Number(length),
              key: request.apiKey?.id,
              ...(failure === null ? {} : { code: failure.code, message: failure.message }),
            },
            'request',
          );
        }
        done();
      },
    );
  },
  { name: 'electrify-request-log', fastify: '5.x' },
);
