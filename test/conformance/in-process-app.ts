import type { SourceRecord } from '../../ingest/source.ts';
import type { ZipCounty } from '../../schemas/rem-data.ts';
import { REM_ZIP_COUNTIES } from '../../data-lake/tables/rem.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import type { ZodApp } from '../../serve/route-group.ts';
import { buildApp } from '../../serve/app.ts';
import type { Geocoder } from '../../serve/geocoding/geocoder.ts';
import type { LruLimits } from '../../serve/plugins/response-cache.ts';
import { createIncentivesApi } from '../../serve/incentives/incentives-api.ts';
import { incentivesLoader } from '../../serve/incentives/incentives-loader.ts';
import { loadSnapshot, type LoadedSnapshot } from '../../serve/snapshot/snapshot-holder.ts';
import { memoryReader } from '../support/serve-fixtures.ts';
import { buildIncentiveTablesInProcess } from '../support/incentives/in-process-lake.ts';

export const IN_PROCESS_KEY = 'in-process-test-key-0123456789';

interface InProcessOptions {
  asOfDate: string;
  geocoder?: Geocoder;
  responseCache?: LruLimits;
  /** The postal table of every US ZIP's state (`rem_zip_counties`), which the lake has beside the incentives. */
  zipCounties?: ZipCounty[];
  /** Further settings, as the environment would give them (e.g. CORS_ORIGINS). */
  env?: Record<string, string>;
}

/** A snapshot of the incentives tables built in memory from parsed records, loaded as the server loads one. */
export async function inProcessSnapshot(
  records: SourceRecord[],
  id = 'in-process',
  zipCounties?: ZipCounty[],
): Promise<LoadedSnapshot> {
  const { tables } = await buildIncentiveTablesInProcess(records);
  if (zipCounties) tables.set(REM_ZIP_COUNTIES.name, zipCounties);
  return loadSnapshot(memoryReader(id, Object.fromEntries(tables)), [incentivesLoader]);
}

/**
 * The real server (app shell + incentives API) answering from whichever snapshot `snapshots` names at each
 * request, so a spec can publish another. Requests need `IN_PROCESS_KEY`.
 */
export async function inProcessServer(
  snapshots: { current(): LoadedSnapshot | null },
  options: InProcessOptions,
): Promise<ZodApp> {
  const api = createIncentivesApi(options.geocoder ? { geocoder: options.geocoder } : {});
  return buildApp({
    config: loadConfig({
      AS_OF_DATE: options.asOfDate,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      ...options.env,
    }),
    logger: createLogger('silent'),
    snapshots,
    routeGroups: [api as never],
    keyStore: {
      authenticate: (key) =>
        key === IN_PROCESS_KEY ? { id: 'in-process', name: 'in-process', reviewer: false } : null,
    },
    ...(options.responseCache ? { responseCache: options.responseCache } : {}),
  });
}

/**
 * The real server (app shell + incentives API) over tables built in memory from parsed records: for
 * tests, and for iterating on conformance before a lake exists. Requests need `IN_PROCESS_KEY`.
 */
export async function inProcessApp(records: SourceRecord[], options: InProcessOptions): Promise<ZodApp> {
  const snapshot = await inProcessSnapshot(records, 'in-process', options.zipCounties);
  return inProcessServer({ current: () => snapshot }, options);
}
