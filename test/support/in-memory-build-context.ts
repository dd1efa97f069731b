import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import { createProgress } from '../../lib/progress.ts';
import type { BuildContext, RowSetting } from '../../transform/tables/lake-table.ts';

/**
 * A build context over records and tables held in memory, for specs that build tables without the
 * pipeline: no DuckDB and no event log (a table that needs either fails, naming it), default settings.
 */
export function inMemoryBuildContext(
  records: (schema: string) => unknown[],
  tables: (name: string) => unknown[],
): BuildContext<RowSetting> {
  const logger = createLogger('silent');
  return {
    db: undefined as never,
    records: async <T>(schema: string) => records(schema) as T[],
    table: async <T>(name: string) => tables(name) as T[],
    eventLog: () => Promise.reject(new Error('an in-memory build context has no event log')),
    settings: loadConfig({}),
    runtime: loadConfig({}),
    logger,
    progress: createProgress({ logger }),
  };
}
