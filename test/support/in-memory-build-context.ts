import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import { createProgress } from '../../lib/progress.ts';
import type { z } from 'zod';
import type { RecordSchema } from '../../schemas/record-schema.ts';
import type { TableRef } from '../../data-lake/tables/table-ref.ts';
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
    // The spec hands in rows of the types the references name.
    records: async <S extends z.ZodType>(schema: RecordSchema<S>) => records(schema.name) as z.output<S>[],
    table: async <Row extends Record<string, unknown>>(ref: TableRef<Row>) => tables(ref.name) as Row[],
    eventLog: () => Promise.reject(new Error('an in-memory build context has no event log')),
    settings: loadConfig({}),
    runtime: loadConfig({}),
    logger,
    progress: createProgress({ logger }),
  };
}
