import type { DuckDBConnection } from '@duckdb/node-api';
import type { z } from 'zod';
import type { EventLog } from '../../ingest/eventlog/event-log.ts';
import type { Logger } from '../../lib/log.ts';
import type { Progress } from '../../lib/progress.ts';
import type { Config } from '../../schemas/config.ts';
import type { AuditFinding } from '../../schemas/lake.ts';

/**
 * Settings that change how fast a table is built, never its rows: every table may read them, and they are
 * not part of any fingerprint.
 */
export type RuntimeSettings = Pick<Config, 'SIMULATE_WORKERS' | 'SIMULATE_STALL_TIMEOUT_MS'>;

/** Settings that may change rows: a table reads only those it declares, and their values are in its fingerprint. */
export type RowSetting = Exclude<keyof Config, keyof RuntimeSettings>;

export interface BuildContext<Setting extends RowSetting = never> {
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
  /** The values of the settings the table declares. */
  settings: Readonly<Pick<Config, Setting>>;
  runtime: Readonly<RuntimeSettings>;
  logger: Pick<Logger, 'info' | 'warn'>;
  progress: Progress;
}

/** What every table of the lake declares, however it is built. */
interface TableDeclaration<Row extends Record<string, unknown>, Setting extends RowSetting> {
  name: string;
  /** Bump when the row shape or meaning changes. */
  schemaVersion: number;
  /**
   * The modules whose code makes the rows: `import.meta.url` of the module declaring the table, plus any
   * entry its build starts by file name (a worker thread). Their code, and all they import, is hashed into
   * the table's fingerprint (lib/code-fingerprint.ts), so changed code is never answered by old rows.
   */
  code: readonly (string | URL)[];
  /** Settings whose values change the rows: readable in `ctx.settings`, and part of the fingerprint. */
  settings?: readonly Setting[];
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
  Setting extends RowSetting = never,
> extends TableDeclaration<Row, Setting> {
  build(ctx: BuildContext<Setting>): Promise<Row[]>;
  /** Checks that run in the audit step over the built rows; an `error` finding blocks the publish. */
  audit?(rows: Row[], ctx: BuildContext<Setting>): Promise<AuditFinding[]> | AuditFinding[];
}

/**
 * A table too large to hold as row objects (the national REM statistics): its build writes rows in
 * chunks, each validated and appended to the DuckDB table as it comes, and its audit runs in SQL over
 * that table (`ctx.db`, table `name`), so memory stays bounded by a chunk whatever the table's size.
 */
export interface ChunkedLakeTable<
  Row extends Record<string, unknown> = Record<string, unknown>,
  Setting extends RowSetting = never,
> extends TableDeclaration<Row, Setting> {
  chunked: true;
  /** Writes every row through `write`, in chunks of any size, in any order. */
  build(ctx: BuildContext<Setting>, write: (rows: readonly Row[]) => Promise<void>): Promise<void>;
  /** SQL ORDER BY the table's rows are stored in (chunks may arrive in any order; the snapshot must not). */
  orderBy: string;
  /** Checks over the built DuckDB table; an `error` finding blocks the publish. */
  audit?(ctx: BuildContext<Setting>): Promise<AuditFinding[]>;
}

export type AnyLakeTable =
  LakeTable<Record<string, unknown>, RowSetting> | ChunkedLakeTable<Record<string, unknown>, RowSetting>;

/** The values of the settings a table declares: what its build may read, and what its fingerprint holds. */
export function declaredSettings<Setting extends RowSetting>(
  table: { settings?: readonly Setting[] },
  config: Config,
): Pick<Config, Setting> {
  return Object.fromEntries((table.settings ?? []).map((name) => [name, config[name]])) as Pick<
    Config,
    Setting
  >;
}

export function isChunked(
  table: AnyLakeTable,
): table is ChunkedLakeTable<Record<string, unknown>, RowSetting> {
  return 'chunked' in table && table.chunked;
}
