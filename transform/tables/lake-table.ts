import type { DuckDBConnection } from '@duckdb/node-api';
import type { z } from 'zod';
import type { EventLog } from '../../ingest/eventlog/event-log.ts';
import type { Logger } from '../../lib/log.ts';
import type { Progress } from '../../lib/progress.ts';
import type { Config } from '../../schemas/config.ts';
import type { AuditFinding } from '../../schemas/lake.ts';

export interface BuildContext {
  /** The run's DuckDB connection; every table built so far in this run is a DuckDB table of that name. */
  db: DuckDBConnection;
  /** Accepted payloads of one record schema, from the latest complete version of its source. */
  records<T = unknown>(schema: string): Promise<T[]>;
  /**
   * Rows of a table already built in this run (one of the declaration's `inputs.tables`). A chunked
   * table's rows are never held: read those with SQL through `db`.
   */
  table<T = unknown>(name: string): Promise<T[]>;
  /** The run's event log, opened on first use: for tables a stage computes through the log (REM simulate). */
  eventLog(): Promise<EventLog>;
  config: Config;
  logger: Pick<Logger, 'info' | 'warn'>;
  progress: Progress;
}

/** What every table of the lake declares, however it is built. */
interface TableDeclaration<Row extends Record<string, unknown>> {
  name: string;
  /** Bump when the row shape or meaning changes. */
  schemaVersion: number;
  description: string;
  /**
   * The row's zod object. Scalars map to Parquet columns of the same type; arrays and objects are stored
   * as JSON text. Every built row is validated with it before it is written.
   */
  row: z.ZodType<Row>;
  inputs: { records?: string[]; tables?: string[] };
}

/**
 * One table of the lake, declared once: its row schema, what it reads, how it is built and how it is
 * audited. The pipeline's order, the manifest's lineage and the audit step all follow from these.
 */
export interface LakeTable<
  Row extends Record<string, unknown> = Record<string, unknown>,
> extends TableDeclaration<Row> {
  build(ctx: BuildContext): Promise<Row[]>;
  /** Checks that run in the audit step over the built rows; an `error` finding blocks the publish. */
  audit?(rows: Row[], ctx: BuildContext): Promise<AuditFinding[]> | AuditFinding[];
}

/**
 * A table too large to hold as row objects (the national REM statistics): its build writes rows in
 * chunks, each validated and appended to the DuckDB table as it comes, and its audit runs in SQL over
 * that table (`ctx.db`, table `name`), so memory stays bounded by a chunk whatever the table's size.
 */
export interface ChunkedLakeTable<
  Row extends Record<string, unknown> = Record<string, unknown>,
> extends TableDeclaration<Row> {
  chunked: true;
  /** Writes every row through `write`, in chunks of any size, in any order. */
  build(ctx: BuildContext, write: (rows: readonly Row[]) => Promise<void>): Promise<void>;
  /** SQL ORDER BY the table's rows are stored in (chunks may arrive in any order; the snapshot must not). */
  orderBy: string;
  /** Checks over the built DuckDB table; an `error` finding blocks the publish. */
  audit?(ctx: BuildContext): Promise<AuditFinding[]>;
}

export type AnyLakeTable = LakeTable | ChunkedLakeTable;

export function isChunked(table: AnyLakeTable): table is ChunkedLakeTable {
  return 'chunked' in table && table.chunked;
}
