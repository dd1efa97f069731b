import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { UNMATCHED_ROUTE, type ServeMetrics } from '../serve-metrics.ts';

/*
 * Why a plugin: every response is counted, public routes, refusals and 404s too, so its hook sits on the
 * root. It labels a response by the route's pattern (`/api/v1/rem/address`, never the URL with its query)
 * and its status class, so the number of series stays that of the routes, whatever clients send.
 */

export interface MetricsPluginOptions {
  metrics: ServeMetrics;
}

export const metricsPlugin = fp<MetricsPluginOptions>(
  async (scope, { metrics }) => {
    scope.addHook(
      'onResponse',
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        // Fastify's own clock, started when the request arrived: no timer of our own per request.
        metrics.observeResponse(
          request.method,
          request.routeOptions.url ?? UNMATCHED_ROUTE,
          reply.statusCode,
          reply.elapsedTime / 1000,
        );
        done();
      },
    );
  },
  { name: 'electrify-metrics', fastify: '5.x' },
);
