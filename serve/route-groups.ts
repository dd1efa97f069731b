import type { RemModel } from '../schemas/rem-model.ts';
import type { RouteGroup } from './route-group.ts';
import { createHealthApi } from './health/health-api.ts';
import { createIncentivesApi } from './incentives/incentives-api.ts';
import { createLakeApi } from './lake/lake-api.ts';
import { createRemApi } from './rem/rem-api.ts';

/** Every route group the server mounts; the snapshot holder loads each one's SnapshotLoader. */
export function createRouteGroups({ remModel }: { remModel: RemModel }): RouteGroup<unknown>[] {
  return [createIncentivesApi(), createRemApi({ model: remModel }), createHealthApi(), createLakeApi()];
}
