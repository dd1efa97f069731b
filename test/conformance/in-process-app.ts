import type { SourceRecord } from '../../ingest/source.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import type { ZodApp } from '../../serve/api-module.ts';
import { buildApp } from '../../serve/app.ts';
import type { Geocoder } from '../../serve/geocoding/geocoder.ts';
import type { LruLimits } from '../../serve/http/lru-cache.ts';
import { createIncentivesApi } from '../../serve/incentives/incentives-api.ts';
import { loadSnapshot } from '../../serve/snapshot/snapshot-holder.ts';
import { memoryReader } from '../support/serve-fixtures.ts';
import { buildIncentiveTablesInProcess } from './in-process-lake.ts';

export const IN_PROCESS_KEY = 'in-process-test-key-0123456789';

/**
 * The real server (app shell + incentives API) over tables built in memory from parsed records: for
 * tests, and for iterating on conformance before a lake exists. Requests need `IN_PROCESS_KEY`.
 */
export async function inProcessApp(
  records: SourceRecord[],
  options: {
    asOfDate: string;
    geocoder?: Geocoder;
    responseCache?: LruLimits;
    /** Further settings, as the environment would give them (e.g. CORS_ORIGINS). */
    env?: Record<string, string>;
  },
): Promise<ZodApp> {
  const { tables } = await buildIncentiveTablesInProcess(records);
  const api = createIncentivesApi(options.geocoder ? { geocoder: options.geocoder } : {});
  const snapshot = await loadSnapshot(memoryReader('in-process', Object.fromEntries(tables)), [api.serving]);
  return buildApp({
    config: loadConfig({
      AS_OF_DATE: options.asOfDate,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      ...options.env,
    }),
    logger: createLogger('silent'),
    snapshots: { current: () => snapshot },
    apiModules: [api as never],
    keyStore: {
      authenticate: (key) => (key === IN_PROCESS_KEY ? { id: 'in-process', name: 'in-process' } : null),
    },
    ...(options.responseCache ? { responseCache: options.responseCache } : {}),
  });
}
