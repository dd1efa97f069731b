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
}

const healthSchema = z
  .object({
    status: z.enum(['ok', 'no-snapshot']).describe('"no-snapshot" until the first snapshot is loaded'),
    snapshot: z.object({ id: z.string(), createdAt: z.string() }).nullable(),
  })
  .meta({ id: 'Health' });

export const healthzPlugin: FastifyPluginAsync<HealthzOptions> = async (scope, { snapshots }) => {
  scope.withTypeProvider<ZodTypeProvider>().get(
    '/healthz',
    {
      schema: {
        security: [],
        tags: ['service'],
        summary: 'Liveness and the snapshot being served',
        response: { 200: healthSchema },
      },
    },
    async () => {
      const snapshot = snapshots.current();
      return {
        status: snapshot ? ('ok' as const) : ('no-snapshot' as const),
        snapshot: snapshot ? { id: snapshot.id, createdAt: snapshot.createdAt } : null,
      };
    },
  );
};
