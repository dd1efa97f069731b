import { parseArgs } from 'node:util';
import { acquireLakeLock } from '../lake-lock.ts';
import { collectGarbage, listSnapshots, rollbackTo, showSnapshot } from '../snapshot-store.ts';
import { readCurrent } from '../current-pointer.ts';
import { UsageError } from '../../lib/cli-main.ts';
import { formatTable } from './format-table.ts';

export interface CommandOutput {
  print(text: string): void;
}

export const LAKE_USAGE = [
  'usage: npm run lake -- <command>',
  '  list                 snapshots, newest first (* marks the published one)',
  "  show [<id>]          a snapshot's manifest (default: the published one)",
  '  rollback <id>        publish an older snapshot again (CURRENT is swapped atomically)',
  '  gc --keep <n>        delete all but the n newest snapshots; the published one is always kept',
].join('\n');

/** `npm run lake`: inspect and maintain the lake's snapshots. Changes take the lake lock. */
export async function lakeCommand(
  argv: readonly string[],
  lakeDir: string,
  out: CommandOutput,
): Promise<number> {
  const { values, positionals } = parse(argv);
  const [command, id, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}\n${LAKE_USAGE}`);
  switch (command) {
    case 'list': {
      const snapshots = await listSnapshots(lakeDir);
      if (snapshots.length === 0) {
        out.print(`no snapshots in ${lakeDir} yet (npm run pipeline builds one)`);
        return 0;
      }
      out.print(
        formatTable(
          ['', 'id', 'created', 'tables', 'rows', 'parent'],
          snapshots.map((s) => [s.current ? '*' : '', s.id, s.createdAt, s.tables, s.rows, s.parent ?? '-']),
        ),
      );
      return 0;
    }
    case 'show': {
      const target = id ?? (await readCurrent(lakeDir));
      if (target === null)
        throw new UsageError('nothing is published yet: name a snapshot (npm run lake -- list)');
      out.print(JSON.stringify(await showSnapshot(lakeDir, target), null, 2));
      return 0;
    }
    case 'rollback': {
      if (id === undefined) throw new UsageError(`rollback needs a snapshot id\n${LAKE_USAGE}`);
      const previous = await withLock(lakeDir, 'lake rollback', () => rollbackTo(lakeDir, id));
      out.print(`CURRENT now names ${id} (was ${previous ?? 'none'})`);
      return 0;
    }
    case 'gc': {
      if (values.keep === undefined) throw new UsageError(`gc needs --keep <n>\n${LAKE_USAGE}`);
      const keep = Number(values.keep);
      if (!Number.isInteger(keep) || keep < 0) {
        throw new UsageError(`--keep must be a whole number of snapshots (0 or more), not "${values.keep}"`);
      }
      const deleted = await withLock(lakeDir, 'lake gc', () => collectGarbage(lakeDir, keep));
      out.print(
        deleted.length === 0 ? 'nothing to delete' : `deleted ${deleted.length}: ${deleted.join(', ')}`,
      );
      return 0;
    }
    default:
      throw new UsageError(
        command === undefined ? LAKE_USAGE : `unknown command "${command}"\n${LAKE_USAGE}`,
      );
  }
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: { keep: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${LAKE_USAGE}`);
  }
}

async function withLock<T>(lakeDir: string, purpose: string, action: () => Promise<T>): Promise<T> {
  const lock = await acquireLakeLock(lakeDir, { purpose });
  try {
    return await action();
  } finally {
    await lock.release();
  }
}
