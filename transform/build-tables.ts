import type { DuckDBConnection } from '@duckdb/node-api';
import type { z } from 'zod';
import type { RecordSchema } from '../schemas/record-schema.ts';
import type { TableRef } from '../data-lake/tables/table-ref.ts';
import type { EventLog } from '../eventlog/event-log.ts';
import type { Logger } from '../lib/log.ts';
import type { Progress } from '../lib/progress.ts';
import type { Config } from '../schemas/config.ts';
import { auditFindingSchema, type AuditFinding } from '../schemas/lake.ts';
import { columnsOfRow, type Column } from '../data-lake/column-types.ts';
import { quoteIdentifier } from '../data-lake/sql-quote.ts';
import { loadTable, openTableLoader } from '../data-lake/table-loader.ts';
import {
  declaredSettings,
  inputNames,
  isChunked,
  type AnyLakeTable,
  type BuildContext,
  type ChunkedLakeTable,
  type LakeTable,
  type RowSetting,
} from './tables/lake-table.ts';
import { describeIssues } from './judge-record.ts';
import { sqlOffendersFinding } from './tables/audit-findings.ts';

export interface BuiltTable {
  table: AnyLakeTable;
  /** How many rows it holds (valid ones: a row its schema rejects is left out and reported). */
  rows: number;
}

export interface BuildResult {
  tables: BuiltTable[];
  findings: AuditFinding[];
}

export interface BuildOptions {
  db: DuckDBConnection;
  /** Tables in dependency order (see orderTables). */
  tables: readonly AnyLakeTable[];
  /** Accepted payloads of a record schema from the versions this run uses. */
  records(schema: string): Promise<unknown[]>;
  progress: Progress;
  config: Config;
  logger: Pick<Logger, 'info' | 'warn'>;
  eventLog(): Promise<EventLog>;
}

export class TableBuildError extends Error {
  constructor(
    readonly table: string,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(`table ${table}: ${detail}`, options);
    this.name = 'TableBuildError';
  }
}

const MAX_EXAMPLES = 5;

/**
 * Builds each table in order into a DuckDB table of its name, validating every row with the table's zod
 * row schema (rows that fail are left out and reported as an error finding), then runs its audit. A
 * table may only read the records and tables it declares, so the manifest's lineage is the truth. A
 * chunked table's rows go to DuckDB chunk by chunk and are never held here.
 */
export async function buildTables(options: BuildOptions): Promise<BuildResult> {
  const built = new Map<string, Record<string, unknown>[]>();
  const results: BuiltTable[] = [];
  const findings: AuditFinding[] = [];
  const task = options.progress.start('build tables', { total: options.tables.length, unit: 'tables' });
  for (const table of options.tables) {
    const ctx = contextFor(table, options, built);
    const columns = columnsOfRow(table.name, table.row);
    const outcome = isChunked(table)
      ? await buildChunked(table, columns, ctx)
      : await buildRows(table, columns, ctx, built);
    findings.push(...outcome.findings, ...(await duplicateKeys(ctx.db, table)));
    results.push({ table, rows: outcome.rows });
    task.tick();
  }
  task.done();
  return { tables: results, findings };
}

/**
 * Rows sharing a key of the table's contract: an error, as the diff matches rows by it and a consumer
 * relies on it naming one row.
 */
function duplicateKeys(db: DuckDBConnection, table: AnyLakeTable): Promise<AuditFinding[]> {
  const { key } = table.contract;
  if (key.length === 0) return Promise.resolve([]);
  const keyText = `concat_ws(' | ', ${key.map((column) => `CAST(${quoteIdentifier(column)} AS VARCHAR)`).join(', ')})`;
  return sqlOffendersFinding(
    db,
    table.name,
    'key-unique',
    'error',
    `rows share a key (${key.join(', ')}), which names one row`,
    `SELECT ${keyText} AS offender, 0 AS position FROM ${quoteIdentifier(table.name)} GROUP BY 1 HAVING count(*) > 1`,
  );
}

interface TableOutcome {
  rows: number;
  findings: AuditFinding[];
}

async function buildRows(
  table: LakeTable<Record<string, unknown>, RowSetting>,
  columns: readonly Column[],
  ctx: BuildContext<RowSetting>,
  built: Map<string, Record<string, unknown>[]>,
): Promise<TableOutcome> {
  let produced: unknown[];
  try {
    produced = await table.build(ctx);
  } catch (error) {
    throw new TableBuildError(table.name, `build failed: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(produced))
    throw new TableBuildError(table.name, 'build did not return an array of rows');
  const rejected = new RejectedRows(table);
  const valid = rejected.validate(produced);
  await loadTable(ctx.db, table.name, columns, valid);
  built.set(table.name, valid);
  const findings = [...rejected.findings(), ...(await audited(table.name, () => table.audit?.(valid, ctx)))];
  return { rows: valid.length, findings };
}

/**
 * Streams a chunked table into a staging table, then stores it in its declared order (chunks come in
 * whatever order the build finds them; the snapshot's bytes must not depend on that).
 */
async function buildChunked(
  table: ChunkedLakeTable<Record<string, unknown>, RowSetting>,
  columns: readonly Column[],
  ctx: BuildContext<RowSetting>,
): Promise<TableOutcome> {
  const staging = `${table.name}__chunks`;
  const loader = await openTableLoader(ctx.db, staging, columns);
  const rejected = new RejectedRows(table);
  let rows = 0;
  try {
    await table.build(ctx, async (chunk) => {
      const valid = rejected.validate(chunk);
      loader.append(valid);
      rows += valid.length;
    });
    loader.flush();
  } catch (error) {
    throw new TableBuildError(table.name, `build failed: ${(error as Error).message}`, { cause: error });
  } finally {
    loader.close();
  }
  await ctx.db.run(
    `CREATE TABLE ${quoteIdentifier(table.name)} AS SELECT * FROM ${quoteIdentifier(staging)} ORDER BY ${table.orderBy}`,
  );
  await ctx.db.run(`DROP TABLE ${quoteIdentifier(staging)}`);
  const findings = [...rejected.findings(), ...(await audited(table.name, () => table.audit?.(ctx)))];
  return { rows, findings };
}

function contextFor(
  table: AnyLakeTable,
  options: BuildOptions,
  built: ReadonlyMap<string, Record<string, unknown>[]>,
): BuildContext<RowSetting> {
  const { records, tables, topics } = inputNames(table);
  return {
    db: options.db,
    settings: declaredSettings(table, options.config),
    runtime: {
      SIMULATE_WORKERS: options.config.SIMULATE_WORKERS,
      SIMULATE_STALL_TIMEOUT_MS: options.config.SIMULATE_STALL_TIMEOUT_MS,
    },
    logger: options.logger,
    progress: options.progress,
    eventLog: () => {
      if (topics.length === 0)
        throw new TableBuildError(table.name, 'opens the event log without declaring inputs.topics');
      return options.eventLog();
    },
    // The rows were validated with the schema their reference names when they were staged or built, so
    // they are of its type.
    records: async <S extends z.ZodType>(schema: RecordSchema<S>) => {
      if (!records.includes(schema.name)) {
        throw new TableBuildError(
          table.name,
          `reads record schema "${schema.name}" without declaring it in inputs.records`,
        );
      }
      return (await options.records(schema.name)) as z.output<S>[];
    },
    table: async <Row extends Record<string, unknown>>(ref: TableRef<Row>) => {
      if (!tables.includes(ref.name)) {
        throw new TableBuildError(
          table.name,
          `reads table "${ref.name}" without declaring it in inputs.tables`,
        );
      }
      const rows = built.get(ref.name);
      if (!rows)
        throw new TableBuildError(table.name, `table "${ref.name}" is built in chunks: read it with SQL`);
      return rows as Row[];
    },
  };
}

/** Validates rows with the table's row schema, counting the rejects (with a few examples) across calls. */
class RejectedRows {
  private seen = 0;
  private invalid = 0;
  private readonly examples: string[] = [];

  constructor(private readonly table: AnyLakeTable) {}

  validate(produced: readonly unknown[]): Record<string, unknown>[] {
    const valid: Record<string, unknown>[] = [];
    for (const row of produced) {
      const parsed = this.table.row.safeParse(row);
      if (parsed.success) valid.push(parsed.data);
      else {
        this.invalid++;
        if (this.examples.length < MAX_EXAMPLES)
          this.examples.push(`row ${this.seen}: ${describeIssues(parsed.error)}`);
      }
      this.seen++;
    }
    return valid;
  }

  findings(): AuditFinding[] {
    if (this.invalid === 0) return [];
    return [
      {
        table: this.table.name,
        check: 'row-schema',
        severity: 'error',
        message: `${this.invalid} of ${this.seen} built rows do not match the table's row schema`,
        count: this.invalid,
        examples: this.examples,
      },
    ];
  }
}

async function audited(
  table: string,
  run: () => Promise<AuditFinding[]> | AuditFinding[] | undefined,
): Promise<AuditFinding[]> {
  let found: AuditFinding[];
  try {
    found = (await run()) ?? [];
  } catch (error) {
    throw new TableBuildError(table, `audit failed to run: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return found.map((finding) => {
    const parsed = auditFindingSchema.safeParse(finding);
    if (!parsed.success) {
      throw new TableBuildError(table, `audit returned an invalid finding: ${describeIssues(parsed.error)}`);
    }
    return parsed.data;
  });
}
