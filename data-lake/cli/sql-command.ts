import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { text } from 'node:stream/consumers';
import { UsageError } from '../../lib/cli-main.ts';
import type { Lake } from '../lake.ts';
import { formatTable } from './format-table.ts';
import { downloadServedLake, LAKE_API_KEY_VARIABLE } from './sql-download.ts';
import { runRepl } from './sql-repl.ts';
import { openSessionOverFiles, openSqlSession, type SqlSession } from './sql-session.ts';

export const SQL_USAGE = [
  'usage: npm run sql [-- --snapshot <id>] [-- -c "<SQL>"]',
  `       npm run sql -- --url http://<host>:3000/api/v1/lake [--tables a,b] [--into <dir>] [-c "<SQL>"]`,
  '  one view per table of the published snapshot (or --snapshot <id>);',
  `  --url: of the snapshot a server publishes, its files downloaded with the key in ${LAKE_API_KEY_VARIABLE}`,
  `    (never on the command line) into <dir>/<snapshot id>/ (default ${path.join(tmpdir(), 'electrify-lake')});`,
  '  -c runs the SQL and exits; on a terminal without -c, an interactive prompt; otherwise SQL is read from stdin',
].join('\n');

/** What `--url` needs from the environment. */
export interface SqlCommandEnv {
  /** The API key of LAKE_API_KEY. */
  apiKey?: string;
  /** What a relative `--into` is relative to: where the person ran the command. */
  cwd: string;
}

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
  lake: Lake,
  io: SqlCommandIo,
  env: SqlCommandEnv = { cwd: process.cwd() },
): Promise<number> {
  const { values } = parse(argv);
  const session =
    values.url === undefined ? await openSqlSession(lake, values.snapshot) : await openServed(values, env);
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

/** A session over the files of the snapshot a server publishes, downloaded first. */
async function openServed(
  values: ReturnType<typeof parse>['values'],
  env: SqlCommandEnv,
): Promise<SqlSession> {
  if (values.snapshot !== undefined)
    throw new UsageError(`--snapshot names a snapshot of the local lake, not of --url\n${SQL_USAGE}`);
  if (env.apiKey === undefined || env.apiKey === '')
    throw new UsageError(
      `--url reads the API key from ${LAKE_API_KEY_VARIABLE} (export ${LAKE_API_KEY_VARIABLE}=…): npm prints a command line, key included`,
    );
  const lake = await downloadServedLake({
    listingUrl: values.url!,
    key: env.apiKey,
    into: path.resolve(env.cwd, values.into ?? path.join(tmpdir(), 'electrify-lake')),
    tables: values.tables?.split(',').map((name) => name.trim()),
  });
  return openSessionOverFiles(lake.snapshotId, lake.tables);
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        snapshot: { type: 'string' },
        command: { type: 'string', short: 'c' },
        url: { type: 'string' },
        tables: { type: 'string' },
        into: { type: 'string' },
      },
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${SQL_USAGE}`);
  }
}
