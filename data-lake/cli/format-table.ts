/** A value as a SQL shell shows it: NULL, numbers and big integers as digits, nested values as JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Rows as an aligned text table with a header rule and a row count, e.g. for a terminal. */
export function formatTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = rows.map((row) => row.map(formatValue));
  const widths = columns.map((name, i) => Math.max(name.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  return [
    line(columns),
    widths.map((w) => '-'.repeat(w)).join('-+-'),
    ...cells.map(line),
    `(${rows.length} row${rows.length === 1 ? '' : 's'})`,
  ].join('\n');
}
