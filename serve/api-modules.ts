import type { RemModel } from '../schemas/rem-model.ts';
import type { ApiModule } from './api-module.ts';
import { createHealthApi } from './health/health-api.ts';
import { createIncentivesApi } from './incentives/incentives-api.ts';
import { createLakeApi } from './lake/lake-api.ts';
import { createRemApi } from './rem/rem-api.ts';

/** Every API module the server mounts; the snapshot holder loads each one's ServingModule. */
export function createApiModules({ remModel }: { remModel: RemModel }): ApiModule<unknown>[] {
  return [createIncentivesApi(), createRemApi({ model: remModel }), createHealthApi(), createLakeApi()];
}
