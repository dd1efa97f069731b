import type { NamedRow } from './incentive-changes.ts';
import type { LakeDiff } from './lake-diff.ts';
import type { TableDiff } from './snapshot-diff.ts';

/** Partitions and rows named per table, and incentives per list, in the text report. */
const SHOWN = 10;

const count = (n: number) => n.toLocaleString('en-US');

function tableLines(diff: TableDiff): string[] {
  const header = `${diff.table}: ${count(diff.rowsBefore)} → ${count(diff.rowsAfter)} rows`;
  if (diff.status === 'added') return [`${header} (new table)`];
  if (diff.status === 'removed') return [`${header} (table removed)`];
  const by = diff.key.length === 0 ? 'whole rows' : diff.key.join(', ');
  const lines = [
    `${header}: +${count(diff.added)} added, −${count(diff.removed)} removed, ~${count(diff.changed)} changed (by ${by})`,
  ];
  if (diff.partitions.length > 0) {
    const shown = diff.partitions
      .slice(0, SHOWN)
      .map((p) => `${p.partition} ${count(p.before)} → ${count(p.after)}`);
    const more = diff.partitions.length - shown.length;
    lines.push(`  per partition: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}`);
  }
  for (const kind of ['added', 'removed', 'changed'] as const) {
    if (diff.examples[kind].length > 0) lines.push(`  ${kind}, e.g.: ${diff.examples[kind].join('; ')}`);
  }
  return lines;
}

function namedLines<T extends NamedRow>(
  title: string,
  rows: readonly T[],
  describe: (row: T) => string = (row) => row.name,
): string[] {
  if (rows.length === 0) return [];
  const byState = new Map<string, number>();
  for (const row of rows) byState.set(row.state, (byState.get(row.state) ?? 0) + 1);
  const states = [...byState].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return [
    `  ${title}: ${count(rows.length)} (${states.map(([state, n]) => `${state} ${count(n)}`).join(', ')})`,
    ...rows.slice(0, SHOWN).map((row) => `    ${row.id} (${row.state}): ${describe(row)}`),
    ...(rows.length > SHOWN ? [`    … and ${count(rows.length - SHOWN)} more`] : []),
  ];
}

/** The diff as text: the incentives summary first, then each changed table, then the unchanged ones. */
export function diffReport(diff: LakeDiff): string {
  const lines = [
    `snapshot ${diff.snapshot.id} (${diff.snapshot.status}) against ${diff.against.id} (${diff.against.status})`,
  ];
  if (diff.incentives !== null) {
    const { incentives, programs } = diff.incentives;
    const summary = [
      ...namedLines('programs that appeared', programs.appeared),
      ...namedLines('programs that disappeared', programs.disappeared),
      ...namedLines('incentives that appeared', incentives.appeared),
      ...namedLines('incentives that disappeared', incentives.disappeared),
      ...namedLines(
        'incentives whose amount changed',
        incentives.amountChanged,
        (row) => `${row.before} → ${row.after}`,
      ),
    ];
    lines.push(
      '',
      'incentives and programs:',
      ...(summary.length > 0 ? summary : ['  none appeared, disappeared or changed amount']),
    );
  }
  const changed = diff.tables.filter((t) => t.status !== 'unchanged');
  lines.push('', ...(changed.length > 0 ? changed.flatMap(tableLines) : ['no table changed']));
  const unchanged = diff.tables.filter((t) => t.status === 'unchanged').map((t) => t.table);
  if (unchanged.length > 0) lines.push('', `unchanged (the same file, not read): ${unchanged.join(', ')}`);
  return lines.join('\n');
}
