import { parseArgs } from 'node:util';
import { text } from 'node:stream/consumers';
import { UsageError } from '../../lib/cli-main.ts';
import { formatTable } from './format-table.ts';
import { runRepl } from './sql-repl.ts';
import { openSqlSession } from './sql-session.ts';

export const SQL_USAGE = [
  'usage: npm run sql [-- --snapshot <id>] [-- -c "<SQL>"]',
  '  one view per table of the published snapshot (or --snapshot <id>);',
  '  -c runs the SQL and exits; on a terminal without -c, an interactive prompt; otherwise SQL is read from stdin',
].join('\n');

export interface SqlCommandIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * `npm run sql`: DuckDB over a snapshot. The tables' `read_parquet` paths go to stderr first, so stdout
 * holds only results (each statement's rows as a table).
 */
export async function sqlCommand(
  argv: readonly string[],
  lakeDir: string,
  io: SqlCommandIo,
): Promise<number> {
  const { values } = parse(argv);
  const session = await openSqlSession(lakeDir, values.snapshot);
  try {
    io.stderr.write(`-- snapshot ${session.snapshotId}: one view per table, reading\n`);
    for (const table of session.tables)
      io.stderr.write(`--   ${table.name}: read_parquet('${table.file}')\n`);
    if (values.command === undefined && io.stdin.isTTY === true) {
      await runRepl(session, io.stdin, io.stdout);
      return 0;
    }
    const sql = values.command ?? (await text(io.stdin));
    try {
      for (const result of await session.query(sql))
        io.stdout.write(`${formatTable(result.columns, result.rows)}\n`);
    } catch (error) {
      io.stderr.write(`SQL error: ${(error as Error).message}\n`);
      return 1;
    }
    return 0;
  } finally {
    session.close();
  }
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: { snapshot: { type: 'string' }, command: { type: 'string', short: 'c' } },
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${SQL_USAGE}`);
  }
}
