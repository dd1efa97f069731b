/** A DuckDB identifier (table or column name) quoted so that any name is safe in SQL text. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A DuckDB string literal (file paths in COPY and read_parquet). */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
