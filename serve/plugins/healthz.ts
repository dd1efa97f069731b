import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SnapshotLoader } from '../snapshot/snapshot-loader.ts';
import type { LoadedSnapshot, SourceStatus } from '../snapshot/snapshot-holder.ts';
import { precomputePercent, type PrecomputeProgress } from '../http/not-ready.ts';

/*
 * Why a plugin: the health check answers whether the process is up and which snapshot it serves, and
 * must keep answering when everything else refuses (no key, a client over its limit, no snapshot yet),
 * so it is registered beside the API scope, never inside it.
 */

export interface HealthzOptions {
  snapshots: { current(): LoadedSnapshot | null; status?(): SourceStatus };
  /** The route groups' serving halves: each is a family whose readiness the check reports. */
  loaders: readonly SnapshotLoader<unknown>[];
  precompute: () => PrecomputeProgress | null;
  /** True once the process has been asked to stop and is waiting for the load balancer to notice. */
  draining: () => boolean;
}

const healthSchema = z
  .object({
    status: z
      .enum(['ok', 'no-snapshot', 'draining'])
      .describe('"no-snapshot" until the first snapshot is loaded; "draining" once asked to stop'),
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
        secondsLeft: z
          .number()
          .nullable()
          .describe(
            'Seconds the whole precompute still needs (every step left) at the soonest: the low end of a ' +
              'range until its work has been timed, then the estimate; null when nothing times it',
          ),
        secondsLeftAtMost: z
          .number()
          .nullable()
          .describe(
            'The high end of that range: equal to secondsLeft once the work has been timed. Neither grows ' +
              'from one reading to the next but by the time of work the precompute found it has to do',
          ),
      })
      .nullable()
      .describe('The running precompute of the families not ready yet, or null when none runs'),
    lake: z
      .object({
        current: z.string().nullable().describe('What CURRENT named when last read'),
        reachable: z
          .boolean()
          .describe(
            "Whether the last read of the lake's CURRENT succeeded; while false, the last snapshot serves",
          ),
        error: z
          .string()
          .nullable()
          .describe(
            'The last failure to read CURRENT or load what it names (a corrupt file among them), while it lasts',
          ),
        since: z.string().nullable().describe('When that failure began'),
        announcements: z
          .enum(['following', 'failing', 'off'])
          .describe(
            'Whether announcements of publishes on the event log are followed (the poll covers while failing)',
          ),
        announced: z.string().nullable().describe('The snapshot the last announcement heard named'),
      })
      .nullable()
      .describe('How this process follows the lake: still 200 while the lake or the log is unreachable'),
  })
  .meta({ id: 'Health' });

export const healthzPlugin: FastifyPluginAsync<HealthzOptions> = async (scope, options) => {
  scope.withTypeProvider<ZodTypeProvider>().get(
    '/healthz',
    {
      schema: {
        security: [],
        tags: ['service'],
        operationId: 'getHealthz',
        summary:
          'Whether this process should receive traffic, the snapshot being served and which families of routes are ready',
        description:
          '200 when serving a snapshot; 503 with no snapshot yet or while draining, so a load balancer ' +
          'checking it takes the process out of its pool. A health state, not an error: same body either way.',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const snapshot = options.snapshots.current();
      const progress = options.precompute();
      const status = options.draining() ? 'draining' : snapshot ? 'ok' : 'no-snapshot';
      return reply.code(status === 'ok' ? 200 : 503).send({
        status,
        snapshot: snapshot ? { id: snapshot.id, createdAt: snapshot.createdAt } : null,
        families: Object.fromEntries(
          options.loaders.map((m) => {
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
                secondsLeft: seconds(progress.left?.lowMs),
                secondsLeftAtMost: seconds(progress.left?.highMs),
              },
        lake: options.snapshots.status?.() ?? null,
      });
    },
  );
};

const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.ceil(ms / 1000));
