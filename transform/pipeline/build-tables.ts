import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventLog } from '../../ingest/eventlog/event-log.ts';
import type { Logger } from '../../lib/log.ts';
import type { Progress } from '../../lib/progress.ts';
import type { Config } from '../../schemas/config.ts';
import { auditFindingSchema, type AuditFinding } from '../../schemas/lake.ts';
import { columnsOfRow } from '../lake/column-types.ts';
import { loadTable } from '../lake/table-loader.ts';
import type { BuildContext, LakeTable } from '../tables/lake-table.ts';
import { describeIssues } from './judge-record.ts';

export interface BuiltTable {
  table: LakeTable;
  rows: Record<string, unknown>[];
}

export interface BuildResult {
  tables: BuiltTable[];
  findings: AuditFinding[];
}

export interface BuildOptions {
  db: DuckDBConnection;
  /** Tables in dependency order (see orderTables). */
  tables: readonly LakeTable[];
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
 * table may only read the records and tables it declares, so the manifest's lineage is the truth.
 */
export async function buildTables(options: BuildOptions): Promise<BuildResult> {
  const built = new Map<string, Record<string, unknown>[]>();
  const results: BuiltTable[] = [];
  const findings: AuditFinding[] = [];
  const task = options.progress.start('build tables', { total: options.tables.length, unit: 'tables' });
  for (const table of options.tables) {
    const ctx = contextFor(table, options, built);
    const columns = columnsOfRow(table.name, table.row);
    let produced: unknown[];
    try {
      produced = await table.build(ctx);
    } catch (error) {
      throw new TableBuildError(table.name, `build failed: ${(error as Error).message}`, { cause: error });
    }
    const { valid, finding } = validateRows(table, produced);
    if (finding) findings.push(finding);
    await loadTable(options.db, table.name, columns, valid);
    built.set(table.name, valid);
    results.push({ table, rows: valid });
    findings.push(...(await audit(table, valid, ctx)));
    task.tick();
  }
  task.done();
  return { tables: results, findings };
}

function contextFor(
  table: LakeTable,
  options: BuildOptions,
  built: ReadonlyMap<string, Record<string, unknown>[]>,
): BuildContext {
  const records = table.inputs.records ?? [];
  const tables = table.inputs.tables ?? [];
  return {
    db: options.db,
    config: options.config,
    logger: options.logger,
    progress: options.progress,
    eventLog: options.eventLog,
    records: async <T>(schema: string) => {
      if (!records.includes(schema)) {
        throw new TableBuildError(
          table.name,
          `reads record schema "${schema}" without declaring it in inputs.records`,
        );
      }
      return (await options.records(schema)) as T[];
    },
    table: async <T>(name: string) => {
      if (!tables.includes(name)) {
        throw new TableBuildError(table.name, `reads table "${name}" without declaring it in inputs.tables`);
      }
      return built.get(name)! as T[];
    },
  };
}

function validateRows(
  table: LakeTable,
  produced: unknown[],
): { valid: Record<string, unknown>[]; finding?: AuditFinding } {
  if (!Array.isArray(produced))
    throw new TableBuildError(table.name, 'build did not return an array of rows');
  const valid: Record<string, unknown>[] = [];
  const examples: string[] = [];
  let invalid = 0;
  for (const [index, row] of produced.entries()) {
    const parsed = table.row.safeParse(row);
    if (parsed.success) {
      valid.push(parsed.data);
      continue;
    }
    invalid++;
    if (examples.length < MAX_EXAMPLES) examples.push(`row ${index}: ${describeIssues(parsed.error)}`);
  }
  if (invalid === 0) return { valid };
  return {
    valid,
    finding: {
      table: table.name,
      check: 'row-schema',
      severity: 'error',
      message: `${invalid} of ${produced.length} built rows do not match the table's row schema`,
      count: invalid,
      examples,
    },
  };
}

async function audit(
  table: LakeTable,
  rows: Record<string, unknown>[],
  ctx: BuildContext,
): Promise<AuditFinding[]> {
  if (!table.audit) return [];
  let found: AuditFinding[];
  try {
    found = await table.audit(rows, ctx);
  } catch (error) {
    throw new TableBuildError(table.name, `audit failed to run: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return found.map((finding) => {
    const parsed = auditFindingSchema.safeParse(finding);
    if (!parsed.success) {
      throw new TableBuildError(
        table.name,
        `audit returned an invalid finding: ${describeIssues(parsed.error)}`,
      );
    }
    return parsed.data;
  });
}
