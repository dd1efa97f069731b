import { parse as parseCsv } from 'csv-parse/sync';
import type { SourceParser, SourceReader, SourceRecord } from '../source.ts';
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

/**
 * A parser of a single-CSV source whose rows are records of one schema: the file must have `columns`, and
 * each row becomes one record keyed by `key`, its payload made by `payload` (cells stay text or become
 * numbers there; the record schema judges them, so a bad cell is quarantined, not thrown).
 */
export function csvRecordParser<Column extends string>(spec: {
  kind: string;
  record: string;
  label: string;
  columns: readonly Column[];
  key: (row: Record<Column, string>) => string;
  payload: (row: Record<Column, string>) => unknown;
}): SourceParser {
  return {
    kind: spec.kind,
    recordSchemas: [spec.record],
    async parse(reader: SourceReader): Promise<SourceRecord[]> {
      const rows = csvRows(await readSourceFile(reader, spec.label), spec.label, spec.columns);
      return rows.map((row) => ({
        schema: spec.record,
        key: spec.key(row as Record<Column, string>),
        payload: spec.payload(row as Record<Column, string>),
      }));
    },
  };
}
