import { parse as parseCsv } from 'csv-parse/sync';
import type { SourceReader } from '../source.ts';
import { MalformedSourceFileError } from './rewiring-america-open-data.ts';

export type CsvRow = Record<string, string>;

/**
 * A required single-file source's bytes: path "" is the file the declaration's location names. A source
 * whose file is missing is malformed, named so an operator can fix it.
 */
export async function readSourceFile(reader: SourceReader, label: string): Promise<Buffer> {
  const body = await reader.read('');
  if (body === null) throw new MalformedSourceFileError(label, 'the source file is missing');
  return body;
}

/** RFC 4180 CSV rows keyed by the header; a file without the expected columns is malformed. */
export function csvRows(body: Buffer, label: string, columns: readonly string[]): CsvRow[] {
  let cells: string[][];
  try {
    cells = parseCsv(body, { skip_empty_lines: true, bom: true, trim: true }) as string[][];
  } catch (error) {
    throw new MalformedSourceFileError(label, (error as Error).message);
  }
  const [header = [], ...lines] = cells;
  const missing = columns.filter((column) => !header.includes(column));
  if (missing.length > 0)
    throw new MalformedSourceFileError(label, `missing column(s) ${missing.join(', ')}`);
  return lines.map((line) => Object.fromEntries(header.map((column, i) => [column, line[i] ?? ''])));
}

/** CSV text → number; an empty or non-numeric cell becomes NaN, which the record schema quarantines. */
export const csvNumber = (text: string | undefined): number =>
  text === undefined || text.trim() === '' ? NaN : Number(text);
