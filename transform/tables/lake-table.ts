import type { DuckDBConnection } from '@duckdb/node-api';
import type { z } from 'zod';
import type { EventLog } from '../../eventlog/event-log.ts';
import type { Logger } from '../../lib/log.ts';
import type { Progress } from '../../lib/progress.ts';
import type { Config } from '../../schemas/config.ts';
import type { RecordSchema } from '../../schemas/record-schema.ts';
import type { TableRef } from '../../data-lake/tables/table-ref.ts';
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
  /**
   * Accepted payloads of one record schema (one of the declaration's `inputs.records`), from the latest
   * complete version of its source.
   */
  records<S extends z.ZodType>(schema: RecordSchema<S>): Promise<z.output<S>[]>;
  /**
   * Rows of a table already built in this run (one of the declaration's `inputs.tables`). A chunked
   * table's rows are never held: read those with SQL through `db`.
   */
  table<Row extends Record<string, unknown>>(ref: TableRef<Row>): Promise<Row[]>;
  /**
   * The run's event log, opened on first use, for a table that declares the topics it reads or writes
   * (`inputs.topics`): tables a stage computes through the log (REM simulate).
   */
  eventLog(): Promise<EventLog>;
  /** The values of the settings the table declares. */
  settings: Readonly<Pick<Config, Setting>>;
  runtime: Readonly<RuntimeSettings>;
  logger: Pick<Logger, 'info' | 'warn'>;
  progress: Progress;
}

/** What every table of the lake declares, however it is built. */
interface TableDeclaration<
  Row extends Record<string, unknown>,
  Setting extends RowSetting,
> extends TableRef<Row> {
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
   * What the build reads, declared so the manifest's lineage is complete and the build can read nothing
   * else: record schemas, tables built before it (by reference: scalars of their row schema are Parquet
   * columns, arrays and objects JSON text), and event-log topics.
   */
  inputs: TableInputs;
}

export interface TableInputs {
  records?: readonly RecordSchema[];
  tables?: readonly TableRef[];
  topics?: readonly string[];
}

/** The names of what a table reads, as the manifest records them. */
export function inputNames(table: { inputs: TableInputs }): {
  records: string[];
  tables: string[];
  topics: string[];
} {
  return {
    records: (table.inputs.records ?? []).map((r) => r.name),
    tables: (table.inputs.tables ?? []).map((t) => t.name),
    topics: [...(table.inputs.topics ?? [])],
  };
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
