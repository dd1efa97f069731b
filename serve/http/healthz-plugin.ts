import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LoadedSnapshot } from '../snapshot/snapshot-holder.ts';

/*
 * Why a plugin: the health check answers whether the process is up and which snapshot it serves, and
 * must keep answering when everything else refuses (no key, a client over its limit, no snapshot yet),
 * so it is registered beside the API scope, never inside it.
 */

export interface HealthzOptions {
  snapshots: { current(): LoadedSnapshot | null };
  /** True once the process has been asked to stop and is waiting for the load balancer to notice. */
  draining: () => boolean;
}

const healthSchema = z
  .object({
    status: z
      .enum(['ok', 'no-snapshot', 'draining'])
      .describe('"no-snapshot" until the first snapshot is loaded; "draining" once asked to stop'),
    snapshot: z.object({ id: z.string(), createdAt: z.string() }).nullable(),
  })
  .meta({ id: 'Health' });

export const healthzPlugin: FastifyPluginAsync<HealthzOptions> = async (scope, { snapshots, draining }) => {
  scope.withTypeProvider<ZodTypeProvider>().get(
    '/healthz',
    {
      schema: {
        security: [],
        tags: ['service'],
        summary: 'Whether this process should receive traffic, and the snapshot being served',
        description:
          '200 when serving a snapshot; 503 with no snapshot yet or while draining, so a load balancer ' +
          'checking it takes the process out of its pool. A health state, not an error: same body either way.',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const snapshot = snapshots.current();
      const status = draining() ? 'draining' : snapshot ? 'ok' : 'no-snapshot';
      return reply.code(status === 'ok' ? 200 : 503).send({
        status,
        snapshot: snapshot ? { id: snapshot.id, createdAt: snapshot.createdAt } : null,
      });
    },
  );
};
