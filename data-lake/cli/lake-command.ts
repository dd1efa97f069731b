import { parseArgs } from 'node:util';
import { UsageError } from '../../lib/cli-main.ts';
import { readCurrent } from '../current-pointer.ts';
import type { Lake } from '../lake.ts';
import type { PublishedSnapshot } from '../published-snapshots.ts';
import { diffReport } from '../diff/diff-report.ts';
import { diffLake } from '../diff/lake-diff.ts';
import { acquireLakeLock } from '../lake-lock.ts';
import { listRuns } from '../run-history.ts';
import { collectGarbage, listSnapshots, publishHeld, rollbackTo, showSnapshot } from '../snapshot-store.ts';
import { readSourceFreshness, staleSources } from '../source-freshness.ts';
import { formatTable } from './format-table.ts';
import type { Progress } from '../../lib/progress.ts';

export interface CommandOutput {
  print(text: string): void;
}

/** What a lake command needs besides its arguments. */
export interface LakeCommandContext {
  lake: Lake;
  /** SOURCE_STALE_AFTER_DAYS: when a source unchanged or unread is reported stale. */
  sourceStaleAfterDays: number;
  /** Who publishes a held snapshot (LAKE_OPERATOR, else the login name), for its manifest. */
  operator: () => string;
  now: () => Date;
  /** Tells replicas that CURRENT moved (on Kafka: the published-snapshots topic); default: nobody. */
  announce?: (event: PublishedSnapshot) => Promise<void>;
  /** Where a long command (a diff of large tables) shows how far it is; default: nowhere. */
  progress?: Progress;
}

export const LAKE_USAGE = [
  'usage: npm run lake -- <command>',
  '  list                        snapshots, newest first: the published one, those held for review',
  "  show [<id>]                 a snapshot's manifest (default: the published one) and the sources' freshness",
  '  diff [<id>] [<against>]     what a snapshot adds, removes and changes against another (default: the',
  '                              newest unpublished snapshot against the published one); --json for scripts',
  '  publish <id> --reason "…"   publish a snapshot held for review, recording who, when and why',
  '  runs [--limit <n>]          the pipeline runs, newest first, and the sources past their age; --json',
  '  rollback <id>               publish an older snapshot again (CURRENT is swapped atomically)',
  '  gc --keep <n>               delete all but the n newest snapshots; the published one is always kept',
].join('\n');

/** `npm run lake`: inspect, review and maintain the lake's snapshots. Changes take the lake lock. */
export async function lakeCommand(
  argv: readonly string[],
  context: LakeCommandContext,
  out: CommandOutput,
): Promise<number> {
  const { values, positionals } = parse(argv);
  const [command, ...ids] = positionals;
  const { lake } = context;
  const at = (count: number) => {
    if (ids.length > count)
      throw new UsageError(`unexpected arguments: ${ids.slice(count).join(' ')}\n${LAKE_USAGE}`);
    return ids;
  };
  switch (command) {
    case 'list':
      at(0);
      out.print(await snapshotList(lake));
      return 0;
    case 'show': {
      const [id] = at(1);
      const target = id ?? (await readCurrent(lake));
      if (target === null)
        throw new UsageError('nothing is published yet: name a snapshot (npm run lake -- list)');
      const freshness = await readSourceFreshness(lake);
      const stale = staleSources(freshness, context.sourceStaleAfterDays, context.now());
      out.print(
        JSON.stringify(
          { ...(await showSnapshot(lake, target)), sourceFreshness: freshness, staleSources: stale },
          null,
          2,
        ),
      );
      return 0;
    }
    case 'diff': {
      const [id, against] = at(2);
      const diff = await diffLake(lake, id, against, context.progress);
      out.print(values.json ? JSON.stringify(diff, null, 2) : diffReport(diff));
      return 0;
    }
    case 'publish': {
      const [id] = at(1);
      if (id === undefined) throw new UsageError(`publish needs a snapshot id\n${LAKE_USAGE}`);
      const reason = values.reason?.trim();
      if (!reason) throw new UsageError(`publish needs --reason "<why the change is right>"\n${LAKE_USAGE}`);
      const review = { operator: context.operator(), reason, now: context.now() };
      const manifest = await withLock(lake, 'lake publish', () => publishHeld(lake, id, review));
      await context.announce?.({ id, previous: manifest.hold!.against, by: 'lake publish' });
      out.print(
        `published ${id} after review by ${manifest.review!.operator} (was ${manifest.hold!.against}): ${reason}`,
      );
      return 0;
    }
    case 'runs': {
      at(0);
      const limit = values.limit === undefined ? 20 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1) {
        throw new UsageError(`--limit must be a whole number of runs (1 or more), not "${values.limit}"`);
      }
      const runs = (await listRuns(lake)).slice(0, limit);
      const freshness = await readSourceFreshness(lake);
      const stale = staleSources(freshness, context.sourceStaleAfterDays, context.now());
      out.print(
        values.json
          ? JSON.stringify({ runs, sourceFreshness: freshness, staleSources: stale }, null, 2)
          : runsReport(runs, freshness, stale),
      );
      return 0;
    }
    case 'rollback': {
      const [id] = at(1);
      if (id === undefined) throw new UsageError(`rollback needs a snapshot id\n${LAKE_USAGE}`);
      const previous = await withLock(lake, 'lake rollback', () => rollbackTo(lake, id));
      await context.announce?.({ id, previous, by: 'lake rollback' });
      out.print(`CURRENT now names ${id} (was ${previous ?? 'none'})`);
      return 0;
    }
    case 'gc': {
      at(0);
      if (values.keep === undefined) throw new UsageError(`gc needs --keep <n>\n${LAKE_USAGE}`);
      const keep = Number(values.keep);
      if (!Number.isInteger(keep) || keep < 0) {
        throw new UsageError(`--keep must be a whole number of snapshots (0 or more), not "${values.keep}"`);
      }
      const deleted = await withLock(lake, 'lake gc', () => collectGarbage(lake, keep));
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

async function snapshotList(lake: Lake): Promise<string> {
  const snapshots = await listSnapshots(lake);
  if (snapshots.length === 0)
    return `no snapshots in ${lake.store.location} yet (npm run pipeline builds one)`;
  return formatTable(
    ['status', 'id', 'created', 'tables', 'rows', 'parent'],
    snapshots.map((s) => [
      s.status === 'superseded' ? '' : s.status,
      s.id,
      s.createdAt,
      s.tables,
      s.rows,
      s.parent ?? '-',
    ]),
  );
}

function runsReport(
  runs: Awaited<ReturnType<typeof listRuns>>,
  freshness: Awaited<ReturnType<typeof readSourceFreshness>>,
  stale: ReturnType<typeof staleSources>,
): string {
  const table =
    runs.length === 0
      ? 'no pipeline runs recorded yet'
      : formatTable(
          [
            'started',
            'trigger',
            'outcome',
            'seconds',
            'snapshot',
            'changed sources',
            'rebuilt',
            'findings',
            'detail',
          ],
          runs.map((run) => [
            run.startedAt,
            run.trigger,
            run.outcome,
            run.endedAt === null
              ? ''
              : Math.round((Date.parse(run.endedAt) - Date.parse(run.startedAt)) / 1000),
            run.snapshot ?? '',
            run.sources
              .filter((s) => s.changed)
              .map((s) => s.source)
              .join(', '),
            run.tables?.rebuilt.length ?? '',
            `${run.findings.error} error, ${run.findings.hold} hold, ${run.findings.warning} warning`,
            firstLine(run.detail ?? ''),
          ]),
        );
  const staleOf = (source: string) =>
    stale
      .filter((s) => s.source === source)
      .map((s) => `${s.reason} for ${s.days} days`)
      .join(', ');
  const rejected = runs.flatMap((run) =>
    (run.rejectedSources ?? []).map(
      (r) =>
        `- run of ${run.startedAt}: ${r.source} ${r.version ?? '(version unknown)'}` +
        `${r.fallback === undefined ? '' : `, built from ${r.fallback} instead`}: ${firstLine(r.reason)}`,
    ),
  );
  const sources = Object.entries(freshness);
  return [
    table,
    ...(rejected.length === 0 ? [] : ['', 'rejected source versions:', ...rejected]),
    '',
    sources.length === 0
      ? 'no source read yet'
      : formatTable(
          ['source', 'last changed', 'last read', 'last failure', 'stale'],
          sources.map(([source, state]) => [
            source,
            state.changedAt,
            state.readAt,
            state.failedAt === undefined ? '' : `${state.failedAt}: ${state.failure}`,
            staleOf(source),
          ]),
        ),
  ].join('\n');
}

/** A message's first line: a run's audit findings follow on lines of their own (`lake runs --json` has them). */
const firstLine = (text: string): string => text.split('\n', 1)[0]!;

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        keep: { type: 'string' },
        reason: { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${LAKE_USAGE}`);
  }
}

async function withLock<T>(lake: Lake, purpose: string, action: () => Promise<T>): Promise<T> {
  const lock = await acquireLakeLock(lake.workDir, { purpose });
  try {
    return await action();
  } finally {
    await lock.release();
  }
}
