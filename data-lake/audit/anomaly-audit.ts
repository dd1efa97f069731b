import type { AuditFinding } from '../../schemas/lake.ts';
import {
  MAX_NULL_SHARE_RISE,
  MEASURE_FACTOR,
  MIN_DROP_ROWS,
  MIN_MEASURE_VALUES,
  type TableContract,
} from '../tables/table-contract.ts';
import { ALL_ROWS, type TableProfile } from './table-profile.ts';

/** A table as the published snapshot had it and as the run built it, with the settings each was built with. */
export interface TableChange {
  table: string;
  contract: TableContract;
  before: TableProfile;
  after: TableProfile;
  settingsBefore: Readonly<Record<string, unknown>>;
  settingsAfter: Readonly<Record<string, unknown>>;
}

/** At most this many partitions are named in a finding (its count says how many there are). */
const MAX_EXAMPLES = 20;

const formatCount = (n: number) => n.toLocaleString('en-US');
const percent = (share: number) => `${Math.round(share * 100)} %`;

/**
 * The write–audit–publish checks of one table against the published snapshot: a partition (state) that
 * had rows and has none, a partition or the table losing more than the contract allows, a watched
 * column's nulls jumping, a measure's median moving by more than a plausible factor. Each is a `hold`: the
 * snapshot is written but not published until reviewed. A partition the table's settings no longer select
 * (a smaller REM_STATES) is named as such, as a warning.
 */
export function anomalyFindings(change: TableChange): AuditFinding[] {
  return [
    ...partitionFindings(change),
    ...tableDropFindings(change),
    ...nullShareFindings(change),
    ...measureFindings(change),
  ];
}

/**
 * The partitions that had rows and lost them all: those the settings no longer select (`deselected`) and
 * the others (`emptied`); and those that lost some because the settings select less of them (`narrowed`).
 */
function partitionLosses({ contract, before, after, settingsBefore, settingsAfter }: TableChange) {
  const deselected: string[] = [];
  const emptied: string[] = [];
  const narrowed: string[] = [];
  if (contract.partition === undefined) return { deselected, emptied, narrowed };
  const level = (settings: Readonly<Record<string, unknown>>, partition: string) =>
    contract.selectedBy?.level(settings, partition);
  for (const [partition, was] of before.partitions) {
    const now = after.partitions.get(partition)?.rows ?? 0;
    if (was.rows === 0 || now >= was.rows) continue;
    const levelBefore = level(settingsBefore, partition);
    const levelAfter = level(settingsAfter, partition);
    const selectsLess = levelBefore !== undefined && levelAfter! < levelBefore;
    if (now > 0) {
      if (selectsLess) narrowed.push(partition);
    } else if (selectsLess && levelAfter === 0) deselected.push(partition);
    else emptied.push(partition);
  }
  return { deselected, emptied, narrowed };
}

/** The settings of the table's selection that changed, as `NAME before → after`. */
function changedSelection(change: TableChange): string {
  return change.contract
    .selectedBy!.settings.filter(
      (name) => JSON.stringify(change.settingsBefore[name]) !== JSON.stringify(change.settingsAfter[name]),
    )
    .map(
      (name) =>
        `${name} ${describeSetting(change.settingsBefore[name])} → ${describeSetting(change.settingsAfter[name])}`,
    )
    .join(', ');
}

function partitionFindings(change: TableChange): AuditFinding[] {
  const { table, contract, before, after } = change;
  const { deselected, emptied, narrowed } = partitionLosses(change);
  const rowsBefore = (partition: string) => before.partitions.get(partition)!.rows;
  const findings: AuditFinding[] = [];
  if (emptied.length > 0) {
    findings.push(
      partitionFinding(table, 'partition-emptied', 'hold', emptied, before, after, (n) =>
        n === 1 ? 'a partition that had rows has none' : `${n} partitions that had rows have none`,
      ),
    );
  }
  if (deselected.length > 0) {
    const settings = changedSelection(change);
    findings.push(
      partitionFinding(
        table,
        'partition-deselected',
        'warning',
        deselected,
        before,
        after,
        (n) =>
          `${n === 1 ? 'a partition has' : `${n} partitions have`} no rows because the settings no longer select ${n === 1 ? 'it' : 'them'} (${settings})`,
      ),
    );
  }
  const narrowedDrops = narrowed.filter((partition) =>
    isDrop(rowsBefore(partition), after.partitions.get(partition)!.rows, contract.maxDrop),
  );
  if (narrowedDrops.length > 0) {
    const settings = changedSelection(change);
    findings.push(
      partitionFinding(
        table,
        'partition-narrowed',
        'warning',
        narrowedDrops,
        before,
        after,
        (n) =>
          `${n === 1 ? 'a partition has' : `${n} partitions have`} fewer rows because the settings select less of ${n === 1 ? 'it' : 'them'} (${settings})`,
      ),
    );
  }
  const dropped = [...before.partitions.keys()].filter((partition) => {
    if (contract.partition === undefined || narrowed.includes(partition)) return false;
    const now = after.partitions.get(partition)?.rows ?? 0;
    return now > 0 && isDrop(rowsBefore(partition), now, contract.maxDrop);
  });
  if (dropped.length > 0) {
    findings.push(
      partitionFinding(
        table,
        'partition-drop',
        'hold',
        dropped,
        before,
        after,
        (n) =>
          `${n === 1 ? 'a partition lost' : `${n} partitions lost`} more than ${percent(contract.maxDrop)} of ${n === 1 ? 'its' : 'their'} rows`,
      ),
    );
  }
  return findings;
}

/** Whether going from `was` to `now` rows loses more than `maxDrop` of them, and enough of them to matter. */
const isDrop = (was: number, now: number, maxDrop: number): boolean =>
  was - now >= MIN_DROP_ROWS && was - now > maxDrop * was;

function partitionFinding(
  table: string,
  check: string,
  severity: AuditFinding['severity'],
  partitions: readonly string[],
  before: TableProfile,
  after: TableProfile,
  message: (count: number) => string,
): AuditFinding {
  const counts = partitions.map((partition) => ({
    partition,
    was: before.partitions.get(partition)?.rows ?? 0,
    now: after.partitions.get(partition)?.rows ?? 0,
  }));
  // The largest losses first: those are the ones to look at.
  counts.sort((a, b) => b.was - b.now - (a.was - a.now) || a.partition.localeCompare(b.partition));
  const only = counts.length === 1 ? counts[0]! : undefined;
  return {
    table,
    check,
    severity,
    message: message(counts.length),
    count: counts.length,
    examples: counts
      .slice(0, MAX_EXAMPLES)
      .map(({ partition, was, now }) => `${partition}: ${formatCount(was)} → ${formatCount(now)} rows`),
    ...(only ? { partition: only.partition, before: only.was, after: only.now } : {}),
  };
}

/**
 * The whole table emptied, or losing more than its contract allows beyond what deselected partitions
 * explain (a smaller REM_STATES takes whole states away on purpose).
 */
function tableDropFindings(change: TableChange): AuditFinding[] {
  const { table, contract, before, after } = change;
  if (before.rows === 0) return [];
  const { deselected, narrowed } = partitionLosses(change);
  const lost = (p: string) => before.partitions.get(p)!.rows - (after.partitions.get(p)?.rows ?? 0);
  const explained = [...deselected, ...narrowed].reduce((sum, p) => sum + lost(p), 0);
  const base = before.rows - explained;
  const emptied = after.rows === 0 && contract.maxDrop < 1;
  if (!emptied && !isDrop(base, after.rows, contract.maxDrop)) return [];
  const explainedNote =
    explained > 0 ? ` (besides ${formatCount(explained)} rows the settings no longer select)` : '';
  return [
    {
      table,
      check: emptied ? 'table-emptied' : 'table-drop',
      severity: 'hold',
      message: emptied
        ? `the table had ${formatCount(before.rows)} rows and has none`
        : `the table lost more than ${percent(contract.maxDrop)} of its rows${explainedNote}: ${formatCount(before.rows)} → ${formatCount(after.rows)}`,
      before: before.rows,
      after: after.rows,
    },
  ];
}

function nullShareFindings({ table, before, after }: TableChange): AuditFinding[] {
  if (before.rows === 0 || after.rows === 0) return [];
  const sum = (profile: TableProfile, column: string) =>
    [...profile.partitions.values()].reduce((total, p) => total + (p.nulls[column] ?? 0), 0);
  return [...after.columns]
    .filter((column) => before.columns.has(column))
    .flatMap((column): AuditFinding[] => {
      const was = sum(before, column) / before.rows;
      const now = sum(after, column) / after.rows;
      const newNulls = sum(after, column) - sum(before, column);
      if (now - was < MAX_NULL_SHARE_RISE || newNulls < MIN_DROP_ROWS) return [];
      return [
        {
          table,
          check: 'null-share-jump',
          severity: 'hold',
          message: `column ${column} is null in ${percent(now)} of rows, against ${percent(was)} (a field renamed or gone blank upstream?)`,
          partition: column,
          before: was,
          after: now,
        },
      ];
    });
}

function measureFindings({ table, contract, before, after }: TableChange): AuditFinding[] {
  return Object.keys(contract.measures ?? {}).flatMap((measure): AuditFinding[] => {
    const moved: { partition: string; was: number; now: number; factor: number }[] = [];
    for (const [partition, then] of before.partitions) {
      const was = then.measures[measure];
      const now = after.partitions.get(partition)?.measures[measure];
      if (!was || !now || was.median === null || now.median === null) continue;
      if (was.values < MIN_MEASURE_VALUES || now.values < MIN_MEASURE_VALUES) continue;
      if (was.median === 0 || now.median === 0 || Math.sign(was.median) !== Math.sign(now.median)) {
        if (was.median !== now.median)
          moved.push({ partition, was: was.median, now: now.median, factor: Infinity });
        continue;
      }
      const factor = Math.max(now.median / was.median, was.median / now.median);
      if (factor > MEASURE_FACTOR) moved.push({ partition, was: was.median, now: now.median, factor });
    }
    if (moved.length === 0) return [];
    moved.sort((a, b) => b.factor - a.factor || a.partition.localeCompare(b.partition));
    const where = (partition: string) => (partition === ALL_ROWS ? 'all rows' : partition);
    const only = moved.length === 1 ? moved[0]! : undefined;
    return [
      {
        table,
        check: 'measure-shift',
        severity: 'hold',
        message: `the median ${measure} moved by more than ×${MEASURE_FACTOR} in ${moved.length === 1 ? 'a partition' : `${moved.length} partitions`} (a unit error upstream?)`,
        count: moved.length,
        examples: moved
          .slice(0, MAX_EXAMPLES)
          .map(
            ({ partition, was, now }) =>
              `${where(partition)}: median ${formatNumber(was)} → ${formatNumber(now)}`,
          ),
        ...(only ? { partition: only.partition, before: only.was, after: only.now } : {}),
      },
    ];
  });
}

const formatNumber = (n: number) => n.toLocaleString('en-US', { maximumSignificantDigits: 6 });

function describeSetting(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(',');
  return String(value);
}
