import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServingModule } from '../snapshot/serving-module.ts';
import type { LoadedSnapshot } from '../snapshot/snapshot-holder.ts';
import { precomputePercent, type PrecomputeProgress } from './not-ready.ts';

/*
 * Why a plugin: the health check answers whether the process is up and which snapshot it serves, and
 * must keep answering when everything else refuses (no key, a client over its limit, no snapshot yet),
 * so it is registered beside the API scope, never inside it.
 */

export interface HealthzOptions {
  snapshots: { current(): LoadedSnapshot | null };
  /** The API modules' serving halves: each is a family whose readiness the check reports. */
  modules: readonly ServingModule<unknown>[];
  precompute: () => PrecomputeProgress | null;
}

const healthSchema = z
  .object({
    status: z.enum(['ok', 'no-snapshot']).describe('"no-snapshot" until the first snapshot is loaded'),
    snapshot: z.object({ id: z.string(), createdAt: z.string() }).nullable(),
    families: z
      .record(z.string(), z.boolean())
      .describe(
        'Per family of routes (incentives, rem, health-impacts): whether the served snapshot has its data. ' +
          'On a fresh lake the incentives are served first, the others once their precompute is published',
      ),
    precompute: z
      .object({
        step: z.string(),
        count: z.number(),
        total: z.number().nullable(),
        unit: z.string(),
        percent: z.number().nullable(),
      })
      .nullable()
      .describe('The running precompute of the families not ready yet, or null when none runs'),
  })
  .meta({ id: 'Health' });

export const healthzPlugin: FastifyPluginAsync<HealthzOptions> = async (scope, options) => {
  scope.withTypeProvider<ZodTypeProvider>().get(
    '/healthz',
    {
      schema: {
        security: [],
        tags: ['service'],
        summary: 'Liveness, the snapshot being served and which families of routes are ready',
        description: '200 whenever the process is up, with or without a snapshot (load balancers: up = 200)',
        response: { 200: healthSchema },
      },
    },
    async () => {
      const snapshot = options.snapshots.current();
      const progress = options.precompute();
      return {
        status: snapshot ? ('ok' as const) : ('no-snapshot' as const),
        snapshot: snapshot ? { id: snapshot.id, createdAt: snapshot.createdAt } : null,
        families: Object.fromEntries(
          options.modules.map((m) => {
            const data = snapshot?.data.get(m.name);
            return [m.name, data !== undefined && (m.ready?.(data) ?? true)];
          }),
        ),
        precompute:
          progress === null
            ? null
            : {
                step: progress.step,
                count: progress.count,
                total: progress.total ?? null,
                unit: progress.unit,
                percent: precomputePercent(progress),
              },
      };
    },
  );
};
