import type { ApiModule } from './api-module.ts';

/** Every API module the server mounts; the snapshot holder loads each one's ServingModule. */
export const apiModules: ApiModule<unknown>[] = [];
