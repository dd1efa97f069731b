import { remServerVersionSchema } from '../../schemas/rem-api.ts';
import type { RemModel } from '../../schemas/rem-model.ts';
import type { RouteGroup, RouteGroupContext, ZodApp } from '../route-group.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { openGeocoder } from '../geocoding/open-geocoder.ts';
import { sendJson } from '../http/send-json.ts';
import { tableEntries, type SnapshotLoader } from '../snapshot/snapshot-loader.ts';
import { registerAddressRoute } from './address-route.ts';
import { registerCountiesRoute } from './counties-route.ts';
import { registerProfileRoute } from './profile-route.ts';
import { loadRemSnapshot, REM_TABLES, type RemSnapshot } from './rem-data.ts';

const remLoader = (model: RemModel): SnapshotLoader<RemSnapshot> => ({
  name: 'rem',
  // None required: a snapshot without the REM tables must still serve the incentives (see loadRemSnapshot).
  tables: [],
  load: (snapshot) => loadRemSnapshot(snapshot, model),
  // The code version is part of the versions the REM routes report.
  madeFrom: (manifest) => [tableEntries(manifest, REM_TABLES), manifest.codeVersion],
  ready: (snapshot) => snapshot.data !== null,
});

export interface RemApiOptions {
  /**
   * The model work requests trigger (clusters not precomputed, profiles), off the event loop: supplied by
   * the composition root (start/), as the server never imports the model; closed with the app.
   */
  model: RemModel;
  /** Defaults to the geocoder the configuration names. */
  geocoder?: Geocoder;
}

/**
 * The REM API: savings for an address's county cluster, for the homes matching a building profile, and
 * the versions that answer. The routes live in their own files; what they decide (the county of an
 * address, a cluster's answer, the rules of a savings request) in theirs.
 */
export function createRemApi(options: RemApiOptions): RouteGroup<RemSnapshot> {
  const { model } = options;
  return {
    loader: remLoader(model),
    register(app: ZodApp, ctx: RouteGroupContext<RemSnapshot>) {
      ctx.metrics.watchModelQueue(() => model.queued());
      app.addHook('onClose', () => model.close());
      registerAddressRoute(app, ctx, options.geocoder ?? openGeocoder(ctx.config));
      registerProfileRoute(app, ctx, model);
      registerCountiesRoute(app, ctx);
      app.get(
        '/api/v1/rem/server_version',
        {
          schema: {
            summary: 'The model, sampler and code versions that answer REM requests',
            operationId: 'getRemServerVersion',
            response: { 200: remServerVersionSchema },
          },
        },
        async (request, reply) => sendJson(reply, ctx.data(request).serverVersionJson),
      );
    },
  };
}
